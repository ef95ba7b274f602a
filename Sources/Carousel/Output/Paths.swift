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

    /// The current folder's path; nil (with `errno` set) where it cannot be had, as when the
    /// folder has been deleted (`ENOENT`). A path `getcwd` still gives for a deleted folder
    /// (it need not fail for one everywhere) counts as gone unless it names the folder `.`
    /// is, so a write never makes a new folder of that name.
    static func currentFolder() -> String? {
        guard let cwd = getcwd(nil, 0) else { return nil }
        defer { free(cwd) }
        var here = stat(), there = stat()
        if stat(".", &here) == 0 {
            if stat(cwd, &there) == 0 {
                guard there.st_dev == here.st_dev, there.st_ino == here.st_ino else {
                    errno = ENOENT
                    return nil
                }
            } else if errno == ENOENT || errno == ENOTDIR {
                errno = ENOENT
                return nil
            }
            // Otherwise (a folder on the way that may not be searched) the path is taken as
            // `getcwd` gave it, as before the check.
        }
        return String(cString: cwd)
    }

    /// Why a relative path cannot be used once the current folder is deleted.
    static let currentFolderGone = "the current folder no longer exists"

    /// The most bytes a file name may have (`NAME_MAX` on Linux and macOS).
    static let nameLimit = 255

    /// `name`'s first characters within `bytes` bytes of UTF-8 (all of it when it fits): the
    /// start of a temporary name that must stay within ``nameLimit``.
    static func prefix(_ name: String, bytes: Int) -> String {
        var used = 0
        var kept = ""
        for character in name {
            used += character.utf8.count
            guard used <= bytes else { break }
            kept.append(character)
        }
        return kept
    }

    /// Why `stat` found nothing at a path, from its `errno`: "no such file or folder", or
    /// what stopped it from looking (a folder on the way that may not be searched, a loop of
    /// links), so a file that is there is never said to be missing.
    static func missingReason(_ code: Int32) -> String {
        switch code {
        case ENOTDIR: return "no such file or folder (a part of the path is a file)"
        case EACCES: return "permission denied (a folder on the way may not be searched)"
        default: return FileErrors.posixReason(code)
        }
    }

    /// Whether `a` and `b` name the same existing regular file, links followed (the same
    /// device and inode: a symbolic or hard link to a file counts as that file).
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        var x = stat()
        guard stat(a, &x) == 0, x.st_mode & S_IFMT == S_IFREG else { return false }
        return isFile(x, at: b)
    }

    /// Whether `path`, links followed, is the file or folder whose `stat` is `info` (the same
    /// device and inode).
    static func isFile(_ info: stat, at path: String) -> Bool {
        var other = stat()
        return stat(path, &other) == 0 && other.st_dev == info.st_dev && other.st_ino == info.st_ino
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
