#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns Foundation and POSIX file errors into a short human reason.
enum FileErrors {
    /// A one-line reason for `error` about `path`, such as "no such file or folder".
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
            case .fileReadNoSuchFile, .fileNoSuchFile: return posixReason(ENOENT)
            case .fileReadNoPermission, .fileWriteNoPermission: return posixReason(EACCES)
            case .fileReadCorruptFile: return "unreadable"
            default: break
            }
        }
        switch Paths.isFolder(path) {
        case true?: return posixReason(EISDIR)
        case nil: return posixReason(ENOENT)
        case false?:
            // Not `localizedDescription`: on macOS that is sentences in the user's language.
            if let cocoa = error as? CocoaError { return "cannot read (file error \(cocoa.code.rawValue))" }
            return "cannot read: \(error)"
        }
    }

    /// A short reason for `errno` value `code`, the table every file message takes its words
    /// from (``Paths/missingReason(_:)`` and ``AtomicOutput``'s refusals to create a file
    /// add what they know of the case): "no such file or folder", "permission denied", "is a folder" and the
    /// other common ones in the project's words, otherwise the C library's text with a
    /// lowercase first letter ("input/output error").
    static func posixReason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file or folder"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "is a folder"
        case ENOTDIR: return "a part of the path is not a folder"
        case ELOOP: return "too many levels of symbolic links"
        case ENAMETOOLONG: return "the name is too long"
        case EROFS: return "read-only file system"
        case ENOSPC: return "no space left on the device"
        default:
            return String(cString: strerror(code)).sentenceInLowercase
        }
    }
}
