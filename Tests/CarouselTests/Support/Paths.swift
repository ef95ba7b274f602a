import Foundation

/// Locations the tests read from.
enum TestPaths {
    /// The package root, from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/pngsuite` beside the package (present in CI, absent in a user's clone).
    static let pngSuite = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/pngsuite")

    /// Whether the PngSuite folder is there.
    static var hasPngSuite: Bool {
        FileManager.default.fileExists(atPath: pngSuite.appendingPathComponent("basn0g01.png").path)
    }

    /// A fresh scratch folder for one test, removed by the caller.
    static func scratch(_ name: String = #function) -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("carousel-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
