import Carousel
import CarouselTestSupport
import Foundation
import Testing

/// The ways in besides a clone: the SwiftPM command plugin, the static release archive,
/// and the Swift code of the README and the DocC articles, built as a user would.
@Suite(.serialized, .enabled(if: SlowTests.enabled, SlowTests.reason))
struct EcosystemTests {
    static let root = ExamplePackageTests.root

    /// Whether the suite runs on Linux, where the release archive and fuzzing are built.
    #if os(Linux)
    static let onLinux = true
    #else
    static let onLinux = false
    #endif

    static func run(_ executable: String, _ arguments: [String], in folder: URL,
                    environment: [String: String] = [:], clean: Bool = false) throws -> CLI.Result {
        if clean {
            // No toolchain on the paths: only the system's own programs and libraries.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.currentDirectoryURL = folder
            process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
            let out = folder.appendingPathComponent("stdout.txt"), err = folder.appendingPathComponent("stderr.txt")
            try Data().write(to: out)
            try Data().write(to: err)
            process.standardOutput = try FileHandle(forWritingTo: out)
            process.standardError = try FileHandle(forWritingTo: err)
            try process.run()
            process.waitUntilExit()
            return CLI.Result(status: process.terminationStatus, stdout: (try? Data(contentsOf: out)) ?? Data(),
                              stderr: String(decoding: (try? Data(contentsOf: err)) ?? Data(), as: UTF8.self))
        }
        return try Subprocess.run(URL(fileURLWithPath: executable), arguments, in: folder, environment: environment, timeout: 3000)
    }

    /// A copy of an example package that depends on this checkout by its absolute path.
    static func copyExample(_ name: String) throws -> URL {
        let fm = FileManager.default
        let copy = fm.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try fm.createDirectory(at: copy, withIntermediateDirectories: true)
        let source = root.appendingPathComponent("Examples/\(name)")
        for item in try fm.contentsOfDirectory(atPath: source.path) where ![".build", "Package.resolved"].contains(item) {
            try fm.copyItem(at: source.appendingPathComponent(item), to: copy.appendingPathComponent(item))
        }
        let manifest = copy.appendingPathComponent("Package.swift")
        let text = try String(contentsOf: manifest, encoding: .utf8)
            .replacingOccurrences(of: ".package(path: \"../..\")", with: ".package(path: \"\(root.path)\")")
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        return copy
    }

    /// `swift package carousel render …` in Examples/PluginDemo writes the GIF into that package.
    @Test func commandPluginRendersIntoThePackage() throws {
        let copy = try Self.copyExample("PluginDemo")
        defer { try? FileManager.default.removeItem(at: copy) }
        let result = try Self.run("/usr/bin/env", ["swift", "package", "--allow-writing-to-package-directory", "carousel",
                                                   "render", "--size", "160x90", "--hold", "0.3", "-o", "Docs/banner.gif"],
                                  in: copy)
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        let gif = try DecodedGIF([UInt8](try Data(contentsOf: copy.appendingPathComponent("Docs/banner.gif"))))
        #expect(gif.width == 160 && gif.height == 90 && gif.frames.count > 1)
        // A failure's one line reaches standard error as SwiftPM's diagnostic, before SwiftPM's
        // own line, and nothing of it standard output (where SwiftPM puts a plugin's output).
        let failed = try Self.run("/usr/bin/env", ["swift", "package", "--allow-writing-to-package-directory", "carousel",
                                                   "render", "--fps", "60", "-o", "Docs/bad.gif"], in: copy)
        let said = failed.stderr
        #expect(failed.status == 1)
        #expect(said.contains("error: --fps: must be 1...50, got 60\nerror: carousel exited with status 64"), "\(said.suffix(2000))")
        #expect(!String(decoding: failed.stdout, as: UTF8.self).contains("--fps"))
        #expect(!FileManager.default.fileExists(atPath: copy.appendingPathComponent("Docs/bad.gif").path))
        // Standard output is refused: SwiftPM passes a plugin's on as text, which mangled a
        // WebP's bytes (a million bytes of replacement characters for 567,306).
        for output in [["-o", "-"], ["--output", "-"], ["--output=-"], ["-o=-"]] {
            let piped = try Self.run("/usr/bin/env", ["swift", "package", "--allow-writing-to-package-directory", "carousel",
                                                      "strip", "--size", "160x90"] + output, in: copy)
            #expect(piped.status == 1 && piped.stdout.isEmpty,
                    "\(output): status \(piped.status), stdout \(String(decoding: piped.stdout.suffix(500), as: UTF8.self)), stderr \(piped.stderr.suffix(1000))")
            #expect(piped.stderr.contains("-: SwiftPM passes a plugin's standard output on as text, not bytes;"), "\(piped.stderr.suffix(2000))")
        }
    }

    /// SIGINT to `swift package` (Ctrl-C; SwiftPM passes it on to the plugin) and SIGTERM (a
    /// CI job's timeout; SwiftPM does not pass it on) each stop carousel, which runs in a
    /// process group of its own, with its temporary file removed: nothing of the output is
    /// left, now or later. Before, carousel went on rendering and wrote the target after
    /// `swift package` had exited.
    @Test(arguments: [SIGINT, SIGTERM])
    func commandPluginStopsWithSwiftPM(_ signal: Int32) throws {
        let copy = try Self.copyExample("PluginDemo")
        defer { try? FileManager.default.removeItem(at: copy) }
        let built = try Self.run("/usr/bin/env", ["swift", "package", "--allow-writing-to-package-directory", "carousel", "--version"], in: copy)
        #expect(built.status == 0, "\(built.stderr.suffix(2000))")
        let docs = copy.appendingPathComponent("Docs")
        func written() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []).filter { $0.contains("long") } }
        _ = Subprocess.endingSignalsByDefault
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--allow-writing-to-package-directory", "carousel", "render", "--size", "1280x720",
                             "--fps", "50", "--script", "autoplay 40", "-o", "Docs/long.gif"]
        process.currentDirectoryURL = copy
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Carousel is writing once its temporary file is there.
        let started = Date()
        while written().isEmpty && Date().timeIntervalSince(started) < 300 { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!written().isEmpty, "carousel wrote its temporary file")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let stopped = Date()
        while !written().isEmpty && Date().timeIntervalSince(stopped) < 30 { Thread.sleep(forTimeInterval: 0.05) }
        #expect(written().isEmpty, "left \(written())")
        Thread.sleep(forTimeInterval: 3)
        #expect(written().isEmpty, "written after SwiftPM ended: \(written())")
    }

    /// `scripts/fuzz` builds each libFuzzer target with the engine's sources (and the system
    /// libraries they import) and runs it: a few seconds each, no crash.
    @Test(.enabled(if: onLinux, "scripts/fuzz needs libFuzzer, which Xcode's toolchain does not ship"),
          arguments: ["png", "apng", "script", "config"])
    func fuzzTargetsBuildAndRun(_ target: String) throws {
        let fuzzed = try Self.run("/bin/bash", ["scripts/fuzz", target, "3"], in: Self.root)
        let out = String(decoding: fuzzed.stdout, as: UTF8.self)
        #expect(fuzzed.status == 0, "\(fuzzed.stderr.suffix(3000))\(out.suffix(2000))")
        #expect(out.contains("crashes: 0"), "\(out.suffix(2000))")
    }

    /// The release archive's binary renders the default carousel with no Swift toolchain
    /// on PATH or LD_LIBRARY_PATH, links no Swift library, says its version, and carries its
    /// symbol table without the debug information.
    @Test(.enabled(if: onLinux, "scripts/make-release builds the Linux archive"))
    func releaseArchiveRunsWithoutSwift() throws {
        let made = try Self.run("/bin/bash", ["scripts/make-release"], in: Self.root)
        #expect(made.status == 0, "\(made.stderr.suffix(2000))")
        let archive = String(decoding: made.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(archive == "dist/carousel-\(Carousel.version)-linux-\(Self.machine()).tar.gz")
        let unpacked = FileManager.default.temporaryDirectory.appendingPathComponent("release-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: unpacked) }
        let tar = try Self.run("/bin/tar", ["-xzf", Self.root.appendingPathComponent(archive).path, "-C", unpacked.path], in: unpacked)
        #expect(tar.status == 0)
        let folder = unpacked.appendingPathComponent("carousel-\(Carousel.version)-linux-\(Self.machine())")
        let binary = folder.appendingPathComponent("carousel").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["LICENSE", "README.md", "carousel"],
                "the binary alone, with no resource bundle")
        let work = unpacked.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let rendered = try Self.run(binary, ["render", "-o", "demo.gif", "--quiet"], in: work, clean: true)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let gif = try DecodedGIF([UInt8](try Data(contentsOf: work.appendingPathComponent("demo.gif"))))
        #expect(gif.width == 640 && gif.height == 360)
        let version = try Self.run(binary, ["--version"], in: work, clean: true)
        #expect(String(decoding: version.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == Carousel.version)
        let ldd = try Self.run("/usr/bin/ldd", [binary], in: work, clean: true)
        let libraries = String(decoding: ldd.stdout, as: UTF8.self)
        #expect(ldd.status == 0 && libraries.contains("libc.so"))
        #expect(!libraries.lowercased().contains("swift") && !libraries.contains("libFoundation") && !libraries.contains("libdispatch"),
                "\(libraries)")
        let sections = try Self.run("/usr/bin/readelf", ["-S", "-W", binary], in: work, clean: true)
        let names = String(decoding: sections.stdout, as: UTF8.self)
        #expect(sections.status == 0 && names.contains(" .symtab ") && !names.contains(" .debug_"),
                "no debug information, the symbol table kept: \(names)")
    }

    /// The Swift blocks of a Markdown file.
    static func swiftBlocks(_ path: String) throws -> [String] {
        let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
        return text.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "\n```").first ?? "" }
    }

    /// Every Swift block of the README that starts with `import`, and every one of the DocC
    /// articles but manifest fragments (`// Package.swift`, `.testTarget(`; those without an import take
    /// `import Carousel`), compiles in a package that depends on this checkout: test code
    /// (with `@Test`) in a test target, each block in a suite of its own, the rest in a function.
    @Test func readmeSwiftBlocksCompile() throws {
        let readme = try Self.swiftBlocks("README.md").filter { $0.hasPrefix("import ") }
        #expect(readme.count >= 3, "the README's library, gesture and snapshot samples")
        let catalogues = ["Sources/Carousel/Carousel.docc", "Sources/CarouselSnapshotTesting/CarouselSnapshotTesting.docc"]
        var articles: [String] = []
        for catalogue in catalogues {
            let names = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent(catalogue).path)
            for name in names.sorted() where name.hasSuffix(".md") {
                articles += try Self.swiftBlocks("\(catalogue)/\(name)").filter { !$0.hasPrefix("//") && !$0.hasPrefix(".") }
                    .map { $0.hasPrefix("import ") ? $0 : "import Carousel\n" + $0 }
            }
        }
        #expect(articles.count >= 5, "the DocC articles' library, script and snapshot samples")
        let blocks = readme + articles
        let fm = FileManager.default
        let package = fm.temporaryDirectory.appendingPathComponent("ReadmeSamples-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: package) }
        for folder in ["Sources/Samples", "Tests/SampleTests"] {
            try fm.createDirectory(at: package.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        var sources = 0, tests = 0
        for block in blocks {
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
            let imports = lines.filter { $0.hasPrefix("import ") }.joined(separator: "\n")
            let body = lines.filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
            if block.contains("@Test") {
                tests += 1
                let file = "\(imports)\n\n@Suite struct Sample\(tests) {\n\(body)\n}\n"
                try file.write(to: package.appendingPathComponent("Tests/SampleTests/Sample\(tests).swift"), atomically: true, encoding: .utf8)
            } else {
                sources += 1
                let file = "\(imports)\n\nfunc sample\(sources)() throws {\n\(body)\n}\n"
                try file.write(to: package.appendingPathComponent("Sources/Samples/Sample\(sources).swift"), atomically: true, encoding: .utf8)
            }
        }
        let identity = Self.root.lastPathComponent.lowercased()
        let manifest = """
        // swift-tools-version:6.0
        import PackageDescription
        let package = Package(
            name: "ReadmeSamples",
            platforms: [.macOS(.v13)],
            dependencies: [
                .package(path: "\(Self.root.path)"),
                .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
            ],
            targets: [
                .target(name: "Samples", dependencies: [.product(name: "Carousel", package: "\(identity)")]),
                .testTarget(name: "SampleTests", dependencies: [
                    .product(name: "Carousel", package: "\(identity)"),
                    .product(name: "CarouselSnapshotTesting", package: "\(identity)"),
                    .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
                ]),
            ]
        )
        """
        try manifest.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let built = try Self.run("/usr/bin/env", ["swift", "build", "--build-tests"], in: package)
        #expect(built.status == 0, "\(built.stderr.suffix(3000))\(String(decoding: built.stdout, as: UTF8.self).suffix(3000))")
    }

    static func machine() -> String {
        var info = utsname()
        uname(&info)
        return withUnsafeBytes(of: &info.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// Lossy WebP at the default quality keeps the sample banners at SSIMULACRA2 >= 85 on
/// average (spec 5b), scored by the `ssimulacra2` Python package on every 12th frame.
@Suite(.enabled(if: SlowTests.enabled, "scores every 12th frame with Python's ssimulacra2; set CAROUSEL_SLOW_TESTS=1 to run it (CI does)"))
struct WebPQualityTests {
    /// In the slow tier only, and there whatever Python has: without ssimulacra2 the test fails.
    @Test func defaultQualityScores85() throws {
        try #require(Python.imports(["ssimulacra2", "PIL"]),
                     "python3 with ssimulacra2 and Pillow scores the frames (pip install ssimulacra2 pillow; .ci/run installs them)")
        let w = try Workspace()
        defer { w.remove() }
        for arguments in [["render", "-o", "banner.webp", "--quiet"], ["frames", "-o", "exact", "--quiet"]] {
            let result = try CLI.run(arguments, in: w.url)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let script = """
        import json
        from PIL import Image
        from ssimulacra2 import compute_ssimulacra2
        info = json.load(open("exact/frames.json"))
        im = Image.open("banner.webp")
        ends, t = [], 0
        for k in range(im.n_frames):
            im.seek(k); im.load(); t += im.info["duration"]; ends.append(t)
        scores = []
        for f in info["frames"][::12]:
            start = f["index"] * 1000 / info["fps"]
            im.seek(next(k for k, e in enumerate(ends) if e > start + 0.5)); im.load()
            im.convert("RGB").save("shown.png")
            scores.append(compute_ssimulacra2("exact/frame-%05d.png" % f["index"], "shown.png"))
        print(sum(scores) / len(scores), min(scores), len(scores))
        """
        let scored = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], in: w.url, timeout: 600)
        #expect(scored.status == 0, "\(scored.stderr)")
        let fields = String(decoding: scored.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        #expect(fields.count == 3 && fields[0] >= 85, "SSIMULACRA2 mean, worst, frames: \(fields)")
    }
}
