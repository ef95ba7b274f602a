import CarouselTestSupport
import Foundation
import Testing

/// Tests that build other packages (the examples, a static release, the code of the README
/// and the DocC articles) or score a render with Python take minutes, and a few others
/// render at length; they run when `CAROUSEL_SLOW_TESTS=1`, as `.ci/run` sets it
/// (``SuiteTier``).
enum SlowTests {
    static var enabled: Bool { SuiteTier.everything }
    static let reason: Comment = "builds other packages; set CAROUSEL_SLOW_TESTS=1 to run it (CI does)"
    /// The trait of a test that renders at length.
    static var rendersAtLength: ConditionTrait { .enabled(if: SuiteTier.everything, Comment(rawValue: SuiteTier.rendersAtLength)) }
}

/// Python 3 and the modules some tests read or score files with: Pillow (`PIL`), a decoder
/// independent of the project's, and `ssimulacra2`.
enum Python {
    /// Whether `python3` imports every one of `modules`.
    static func imports(_ modules: [String]) -> Bool {
        let probe = try? Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                        ["python3", "-c", "import " + modules.joined(separator: ", ")],
                                        in: FileManager.default.temporaryDirectory)
        return probe?.status == 0
    }

    /// The trait of a test that runs Python with `modules` (`packages` on PyPI). The slow tier
    /// runs it whatever is installed, so CI (whose `.ci/run` installs them) fails without them
    /// rather than passing unchecked; the quick tier skips it where they are missing.
    static func needs(_ modules: [String], packages: String) -> ConditionTrait {
        .enabled(if: SuiteTier.everything || imports(modules),
                 Comment(rawValue: "needs python3 with \(modules.joined(separator: " and ")) (pip install \(packages)); CAROUSEL_SLOW_TESTS=1 requires them"))
    }
}
