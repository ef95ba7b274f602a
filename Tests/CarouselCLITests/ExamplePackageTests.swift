import Carousel
import Foundation
import Testing

/// Runs Examples/SnapshotDemo, a separate package that depends on this one by path and
/// snapshot-tests two frames of its banner against committed references.
@Suite(.serialized, .enabled(if: SlowTests.enabled, SlowTests.reason))
struct ExamplePackageTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let example = root.appendingPathComponent("Examples/SnapshotDemo")

    /// Runs `swift ARGS` with extra environment, returning status and combined output.
    static func swift(_ arguments: [String], environment: [String: String]) throws -> (Int32, String) {
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["swift"] + arguments, in: root,
                                        environment: environment, timeout: 1800)
        return (result.status, String(decoding: result.stdout, as: UTF8.self) + result.stderr)
    }

    @Test func examplePassesAgainstCommittedReferences() throws {
        let (status, output) = try Self.swift(["test", "--package-path", Self.example.path],
                                              environment: ["SNAPSHOT_TESTING_RECORD": "never"])
        #expect(status == 0, "\(output.suffix(3000))")
        #expect(output.contains("Test run with 2 tests"), "\(output.suffix(2000))")
    }

    /// A changed option (the current dot's colour) fails both snapshots with a readable
    /// message and the reference, actual and difference images on disk.
    @Test func changedOptionFailsReadably() throws {
        let fm = FileManager.default
        let copy = fm.temporaryDirectory.appendingPathComponent("SnapshotDemo-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: copy) }
        try fm.createDirectory(at: copy, withIntermediateDirectories: true)
        for item in ["Package.swift", "Sources", "Tests"] {
            try fm.copyItem(at: Self.example.appendingPathComponent(item), to: copy.appendingPathComponent(item))
        }
        let manifest = copy.appendingPathComponent("Package.swift")
        var text = try String(contentsOf: manifest, encoding: .utf8)
        text = text.replacingOccurrences(of: "let carouselFolder = \"../..\"", with: "let carouselFolder = \"\(Self.root.path)\"")
        text = text.replacingOccurrences(
            of: "let carousel = Context.packageDirectory.split(separator: \"/\").dropLast(2).last.map(String.init) ?? \"carousel\"",
            with: "let carousel = \"\(Self.root.lastPathComponent.lowercased())\"")
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        let source = copy.appendingPathComponent("Sources/DemoBanner/DemoBanner.swift")
        let original = try String(contentsOf: source, encoding: .utf8)
        let changed = original.replacingOccurrences(of: "options.dots.currentColor = RGBA(r: 0xFF, g: 0xFF, b: 0xFF)",
                                                    with: "options.dots.currentColor = RGBA(r: 0xFF, g: 0x3B, b: 0x30)")
        try #require(changed != original, "the demo sets the current dot colour")
        try changed.write(to: source, atomically: true, encoding: .utf8)

        let artifacts = copy.appendingPathComponent("artifacts")
        let (status, output) = try Self.swift(
            ["test", "--package-path", copy.path, "--scratch-path", copy.appendingPathComponent(".build").path],
            environment: ["SNAPSHOT_TESTING_RECORD": "never", "SNAPSHOT_ARTIFACTS": artifacts.path])
        #expect(status != 0)
        #expect(output.contains("Carousel frame differs from its reference: "), "\(output.suffix(3000))")
        for label in ["Reference:", "Actual:", "Difference:"] {
            let paths = output.split(separator: "\n").filter { $0.contains(label) }
                .map { String($0[$0.range(of: label)!.upperBound...]).trimmingCharacters(in: .whitespaces) }
            #expect(paths.count >= 2, "\(label) given for both tests")
            for path in paths {
                #expect(path.hasPrefix(artifacts.path))
                let image = try PNGCodec.decode(try Data(contentsOf: URL(fileURLWithPath: path)))
                #expect(image.width == 320 && image.height == 180, "\(path)")
            }
        }
    }
}
