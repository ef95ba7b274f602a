import Foundation

/// Writes output files so that a failed run leaves nothing behind.
///
/// A file is written to a temporary file beside the target and renamed into place
/// when complete; on failure the temporary file is removed and an existing target
/// is untouched. `-` means standard output.
public enum AtomicOutput {
    /// Runs `body` with a sink for `path`, then moves the result into place.
    public static func write(to path: String, _ body: (any ByteSink) throws(CarouselError) -> Void) throws(CarouselError) {
        if path == "-" {
            try body(FileDescriptorSink(fd: STDOUT_FILENO, name: "<stdout>"))
            return
        }
        let target = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .output(path, "is a folder; give a file name")
        }
        let (fd, temporary) = try makeTemporary(beside: target)
        let sink = FileDescriptorSink(fd: fd, name: path)
        do throws(CarouselError) {
            try body(sink)
            guard fsync(fd) == 0 || errno == EINVAL else { throw .output(path, FileErrors.posixReason(errno)) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard close(fd) == 0 else {
            let reason = FileErrors.posixReason(errno)
            unlink(temporary)
            throw .output(path, reason)
        }
        guard rename(temporary, target.path) == 0 else {
            let reason = FileErrors.posixReason(errno)
            unlink(temporary)
            throw .output(path, reason)
        }
    }

    /// Writes `data` to `path` atomically.
    public static func write(_ data: Data, to path: String) throws(CarouselError) {
        try write(to: path) { sink throws(CarouselError) in
            try sink.write(data)
        }
    }

    /// Creates `.NAME.XXXXXX` beside `target`, readable like a normal new file (0666 less the umask).
    static func makeTemporary(beside target: URL) throws(CarouselError) -> (Int32, String) {
        let folder = target.deletingLastPathComponent().path
        var template = Array((folder + "/." + target.lastPathComponent + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw .output(target.path, "cannot write in \(folder): \(FileErrors.posixReason(errno))")
        }
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        let name = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return (fd, name)
    }

    /// Writes a folder of files atomically: built in a temporary folder beside `path`, then swapped in.
    ///
    /// An existing `path` is replaced only when it is empty or holds nothing but files
    /// `isReplaceable` accepts (a previous run's output); otherwise it is an error.
    public static func writeFolder(at path: String, isReplaceable: (String) -> Bool,
                                   _ body: (URL) throws(CarouselError) -> Void) throws(CarouselError) {
        let fm = FileManager.default
        let target = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
        var isDirectory: ObjCBool = false
        let exists = fm.fileExists(atPath: target.path, isDirectory: &isDirectory)
        if exists {
            guard isDirectory.boolValue else { throw .output(path, "exists and is not a folder") }
            let names = (try? fm.contentsOfDirectory(atPath: target.path)) ?? []
            guard names.allSatisfy(isReplaceable) else {
                throw .output(path, "folder holds other files; give a new or empty folder")
            }
        }
        let parent = target.deletingLastPathComponent().path
        var template = Array((parent + "/." + target.lastPathComponent + ".XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw .output(path, "cannot write in \(parent): \(FileErrors.posixReason(errno))")
        }
        let temporary = URL(fileURLWithPath: template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        let mask = umask(0)
        umask(mask)
        chmod(temporary.path, 0o777 & ~mask)
        do throws(CarouselError) {
            try body(temporary)
        } catch {
            try? fm.removeItem(at: temporary)
            throw error
        }
        if exists {
            let old = temporary.path + ".old"
            guard rename(target.path, old) == 0 else {
                let reason = FileErrors.posixReason(errno)
                try? fm.removeItem(at: temporary)
                throw .output(path, reason)
            }
            guard rename(temporary.path, target.path) == 0 else {
                let reason = FileErrors.posixReason(errno)
                rename(old, target.path)
                try? fm.removeItem(at: temporary)
                throw .output(path, reason)
            }
            try? fm.removeItem(atPath: old)
        } else {
            guard rename(temporary.path, target.path) == 0 else {
                let reason = FileErrors.posixReason(errno)
                try? fm.removeItem(at: temporary)
                throw .output(path, reason)
            }
        }
    }
}
