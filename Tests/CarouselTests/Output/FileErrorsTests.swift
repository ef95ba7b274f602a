@testable import Carousel
import Foundation
import Testing

/// The file-system answers and text helpers the library keeps instead of Foundation's
/// `NSString`, `CharacterSet` and `FileManager` calls that need the whole of Foundation.
struct FileErrorsTests {
    /// Paths split as `NSString`'s `deletingLastPathComponent` and `lastPathComponent` split them.
    @Test func pathsSplitAtTheLastSlash() {
        let cases: [(String, String, String)] = [
            ("a/b/c.gif", "a/b", "c.gif"), ("c.gif", "", "c.gif"), ("/c.gif", "/", "c.gif"),
            ("/", "/", "/"), ("//", "/", "/"), ("a/b/", "a", "b"), ("a//b", "a", "b"), ("./x", ".", "x"),
            ("/tmp/out/", "/tmp", "out"), ("", "", ""),
        ]
        for (path, folder, name) in cases {
            let split = Paths.split(path)
            #expect(split.folder == folder && split.name == name, "\(path): \(split)")
        }
    }

    /// A folder, a file and nothing, links followed; and the reasons a failed listing gives.
    @Test func foldersFilesAndReasons() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("carousel-fe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("f.txt")
        try Data("x".utf8).write(to: file)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("link").path,
                                                   withDestinationPath: root.path)
        #expect(Paths.isFolder(root.path) == true)
        #expect(Paths.isFolder(root.appendingPathComponent("link").path) == true)
        #expect(Paths.isFolder(file.path) == false)
        #expect(Paths.isFolder(root.appendingPathComponent("none").path) == nil)
        let missing = root.appendingPathComponent("none").path
        do {
            _ = try FileManager.default.contentsOfDirectory(atPath: missing)
            Issue.record("listed a missing folder")
        } catch {
            #expect(FileErrors.reason(error, path: missing) == "no such file or folder")
        }
        do {
            _ = try FileManager.default.contentsOfDirectory(atPath: file.path)
            Issue.record("listed a file")
        } catch {
            #expect(FileErrors.reason(error, path: file.path) == "a part of the path is not a folder")
        }
        #expect(FileErrors.reason(POSIXError(.EACCES), path: file.path) == "permission denied")
        #expect(FileErrors.reason(CocoaError(.fileReadNoSuchFile), path: file.path) == "no such file or folder")
        #expect(FileErrors.reason(CocoaError(.fileWriteNoPermission), path: file.path) == "permission denied")
        struct Other: Error {}
        #expect(FileErrors.reason(Other(), path: root.path) == "is a folder")
        #expect(FileErrors.reason(Other(), path: missing) == "no such file or folder")
        #expect(FileErrors.reason(Other(), path: file.path).hasPrefix("cannot read"))
        // Every reason starts in lowercase, the C library's texts too.
        #expect(FileErrors.posixReason(EIO) == "input/output error")
        #expect(FileErrors.posixReason(EEXIST) == "file exists")
        #expect(["RFS specific error", "No space", "IDAT", "A", ""].map(\.sentenceInLowercase) == ["RFS specific error", "no space", "IDAT", "A", ""])
    }

    /// Spaces and tabs trimmed at the ends, line breaks and inner spaces kept.
    @Test func textHelpers() {
        #expect(" \t 1.5\u{00A0}".trimmingSpaces == "1.5")
        #expect("\n1.5 ".trimmingSpaces == "\n1.5")
        #expect("  ".trimmingSpaces == "" && "".trimmingSpaces == "")
        #expect("ease in".trimmingSpaces == "ease in")
        #expect(" \u{301}5".trimmingSpaces == "\u{301}5", "a combining mark is no space")
        #expect("\u{2003}x\u{000B}".trimmingSpaces == "x\u{000B}", "an em space goes, a vertical tab stays")
    }
}
