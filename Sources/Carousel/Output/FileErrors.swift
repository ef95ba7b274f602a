#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Turns Foundation and POSIX file errors into a short human reason.
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
        switch Paths.isFolder(path) {
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
}
