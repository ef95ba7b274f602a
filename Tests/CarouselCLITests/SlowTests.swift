import Foundation
import Testing

/// Tests that build other packages (the examples, a static release, the code of the README
/// and the DocC articles) or score a render with Python take minutes; they run when
/// `CAROUSEL_SLOW_TESTS=1`, as `.ci/run` sets it.
enum SlowTests {
    static var enabled: Bool { ProcessInfo.processInfo.environment["CAROUSEL_SLOW_TESTS"] == "1" }
    static let reason: Comment = "builds other packages; set CAROUSEL_SLOW_TESTS=1 to run it (CI does)"
}
