#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few questions about paths the library asks of the file system, answered with the C
/// library rather than Foundation's `FileManager` and `NSString` (see ``Lock``).
enum Paths {
    /// Whether `path`, links followed, is a folder; nil when nothing is there.
    static func isFolder(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// `path` split at its last slash, trailing slashes aside, as `NSString`'s
    /// `deletingLastPathComponent` and `lastPathComponent` split it: "a/b/c" is ("a/b", "c"),
    /// "c" is ("", "c"), "/c" is ("/", "c"), and "/" is ("/", "/").
    static func split(_ path: String) -> (folder: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard trimmed != "/" else { return ("/", "/") }
        guard let slash = trimmed.lastIndex(of: "/") else { return ("", String(trimmed)) }
        var folder = trimmed[..<slash]
        while folder.hasSuffix("/") { folder.removeLast() }
        return (folder.isEmpty ? "/" : String(folder), String(trimmed[trimmed.index(after: slash)...]))
    }
}
