#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Turns Foundation and POSIX file errors into a short human reason, and answers the few
/// questions about paths the library asks of the file system.
enum FileErrors {
    /// A one-line reason for `error` about `path`, such as "no such file".
    static func reason(_ error: any Error, path: String) -> String {
        if let posix = error as? POSIXError { return posixReason(posix.code.rawValue) }
        if let cocoa = error as? CocoaError {
            #if canImport(FoundationEssentials)
            let underlying = cocoa.underlying
            #else
            let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? any Error
            #endif
            if let posix = underlying as? POSIXError { return posixReason(posix.code.rawValue) }
            switch cocoa.code {
            case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
            case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
            case .fileReadCorruptFile: return "unreadable"
            default: break
            }
        }
        switch isFolder(path) {
        case true?: return "is a directory"
        case nil: return "no such file"
        case false?:
            #if canImport(FoundationEssentials)
            if let cocoa = error as? CocoaError { return "cannot read (file error \(cocoa.code.rawValue))" }
            return "cannot read: \(error)"
            #else
            return "cannot read: \(error.localizedDescription)"
            #endif
        }
    }

    /// The C library's text for `errno` value `code`, e.g. "No such file or directory".
    static func posixReason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

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
