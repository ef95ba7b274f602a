import Foundation

/// Turns Foundation and POSIX file errors into a short human reason.
enum FileErrors {
    /// A one-line reason for `error` about `path`, such as "no such file".
    static func reason(_ error: any Error, path: String) -> String {
        let ns = error as NSError
        var code = ns.code
        if ns.domain == NSCocoaErrorDomain, let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain {
            code = underlying.code
            return posixReason(Int32(code))
        }
        if ns.domain == NSPOSIXErrorDomain { return posixReason(Int32(code)) }
        switch code {
        case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
        case NSFileReadCorruptFileError: return "unreadable"
        default:
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
                return "is a directory"
            }
            if !FileManager.default.fileExists(atPath: path) { return "no such file" }
            return "cannot read: \(ns.localizedDescription)"
        }
    }

    /// The C library's text for `errno` value `code`, e.g. "No such file or directory".
    static func posixReason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
