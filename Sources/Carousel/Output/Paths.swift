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

    /// Whether `a` and `b` name the same existing regular file, links followed (the same
    /// device and inode: a symbolic or hard link to a file counts as that file).
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        guard stat(a, &x) == 0, x.st_mode & S_IFMT == S_IFREG, stat(b, &y) == 0 else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// `folder` and `name` joined with one slash; `name` alone when `folder` is empty or
    /// `name` is absolute.
    static func join(_ folder: String, _ name: String) -> String {
        name.hasPrefix("/") || folder.isEmpty ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name
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
