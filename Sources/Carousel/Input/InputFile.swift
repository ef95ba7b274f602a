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

/// Reads an input file whole, refusing what is not a regular file or is too large.
///
/// A device or FIFO given as an image, script or config (`/dev/zero`, a pipe) would read
/// forever or block; it is refused by what it is, before anything is read.
enum InputFile {
    /// Why a file could not be read.
    struct Failure: Error {
        /// One line: e.g. "not a regular file (a character device)".
        let reason: String
    }

    /// The bytes of the regular file at `path`, at most `limit` of them.
    static func read(_ path: String, limit: Int) throws(Failure) -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw Failure(reason: FileErrors.posixReason(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(reason: FileErrors.posixReason(errno)) }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else { throw Failure(reason: "not a regular file (\(describe(kind)))") }
        let size = Int(info.st_size)
        guard size <= limit else {
            throw Failure(reason: "the file is \(size) bytes, over the limit of \(limit) bytes")
        }
        var data = Data(count: size)
        var done = 0
        while done < size {
            let n = data.withUnsafeMutableBytes { raw in
                POSIX.read(fd, raw.baseAddress! + done, size - done)
            }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Failure(reason: FileErrors.posixReason(errno))
            }
            if n == 0 { break }
            done += n
        }
        return data.prefix(done)
    }

    /// What a non-regular file is, for messages.
    static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: return "a folder"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        default: return "not a plain file"
        }
    }
}
