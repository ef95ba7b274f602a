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

/// Reads an input file whole: a regular file, or a pipe (`-` for standard input, a FIFO, a
/// shell's `<(command)`), refusing anything else or anything too large.
///
/// A device given as an image, script or config (`/dev/zero`, a terminal) would read forever
/// or wait for typing; it is refused by what it is, before anything is read. A pipe is read
/// to its end, as `cat` reads it: a named FIFO waits for a writer to open it. A pipe can be
/// read only once, so its bytes are kept for the rest of the run, and a second read of the
/// same pipe (the command line reads its config again to name a key in an error) gets the
/// same bytes; a second read for another use (`--config - --script-file -`) is refused.
enum InputFile {
    /// Why a file could not be read.
    struct Failure: Error {
        /// One line: e.g. "not a regular file (a character device)".
        let reason: String
    }

    /// What the run reads from pipes, and standard input's first use.
    private struct Streams {
        /// A pipe's bytes and what it was read as, by its device and inode.
        var read: [Node: (use: String, data: Data)] = [:]
        /// What standard input (`-`) was first read as.
        var standardInputUse: String?
    }

    /// A file's device and inode.
    private struct Node: Hashable {
        let device: UInt64
        let inode: UInt64
        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// The pipes read so far; reads of pipes take the lock for their whole length, so two
    /// threads never share one pipe's bytes between them.
    nonisolated(unsafe) private static var streams = Streams()
    private static let lock = Lock()

    /// The name that stands for standard input in a path option.
    static let standardInputPath = "-"

    /// How a path is named in messages: standard input as "standard input", any other path as given.
    static func displayName(_ path: String) -> String {
        path == standardInputPath ? "standard input" : path
    }

    /// The bytes of the regular file or pipe at `path` (`-`: standard input), at most `limit`
    /// of them; `use` names what the bytes are read as ("config file"), for a second read.
    static func read(_ path: String, limit: Int, as use: String) throws(Failure) -> Data {
        try readNoting(path, limit: limit, as: use).data
    }

    /// ``read(_:limit:as:)``'s bytes, and whether they came from a regular file.
    static func readNoting(_ path: String, limit: Int, as use: String) throws(Failure) -> (data: Data, isRegular: Bool) {
        let isStandardInput = path == standardInputPath
        if isStandardInput {
            lock.lock()
            defer { lock.unlock() }
            if let first = streams.standardInputUse, first != use {
                throw Failure(reason: "standard input was already read as the \(first); give a file's path for one of them")
            }
            streams.standardInputUse = use
        }
        var fd = isStandardInput ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw Failure(reason: FileErrors.posixReason(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(reason: FileErrors.posixReason(errno)) }
        let kind = info.st_mode & S_IFMT
        switch kind {
        case S_IFREG:
            return (try readRegular(fd, size: Int(info.st_size), limit: limit), true)
        case _ where kind == S_IFIFO || (kind == S_IFSOCK && isStandardInput):
            lock.lock()
            defer { lock.unlock() }
            let node = Node(info)
            if let kept = streams.read[node] {
                guard kept.use == use else {
                    let source = isStandardInput ? "standard input" : "the pipe"
                    throw Failure(reason: "\(source) was already read as the \(kept.use); give a file's path for one of them")
                }
                return (kept.data, false)
            }
            if !isStandardInput {
                // Opened without waiting, to learn what the path is; opened again to wait for a
                // writer, as `cat` would (a FIFO read before its writer opens it reads empty).
                // The first stays open until the second is, so a writer that came in between
                // never finds the FIFO without a reader.
                let waiting = open(path, O_RDONLY | O_CLOEXEC)
                close(fd)
                fd = waiting
                guard fd >= 0 else { throw Failure(reason: FileErrors.posixReason(errno)) }
                guard fstat(fd, &info) == 0 else { throw Failure(reason: FileErrors.posixReason(errno)) }
                guard Node(info) == node else { throw Failure(reason: "the FIFO was replaced while it was opened") }
            }
            let data = try readStream(fd, limit: limit)
            streams.read[node] = (use, data)
            return (data, false)
        case S_IFCHR where isStandardInput && isatty(fd) == 1:
            throw Failure(reason: "standard input is a terminal; pipe the file in, or give its path")
        default:
            throw Failure(reason: "not a regular file (\(describe(kind)))")
        }
    }

    /// A regular file's bytes, read from its start whatever the descriptor's offset (standard
    /// input read twice, or a `/dev/fd/N` that shares its offset).
    private static func readRegular(_ fd: Int32, size: Int, limit: Int) throws(Failure) -> Data {
        guard size <= limit else {
            throw Failure(reason: "the file is \(size) bytes, over the limit of \(limit) bytes")
        }
        var data = Data(count: size)
        var done = 0
        while done < size {
            let n = data.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress! + done, size - done, off_t(done))
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

    /// A pipe's bytes to its end; more than `limit` is refused as soon as it is seen.
    private static func readStream(_ fd: Int32, limit: Int) throws(Failure) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { raw in POSIX.read(fd, raw.baseAddress!, raw.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(reason: FileErrors.posixReason(errno))
            }
            if n == 0 { return data }
            guard data.count + n <= limit else {
                throw Failure(reason: "the pipe gives more than the limit of \(limit) bytes")
            }
            data.append(contentsOf: buffer[0..<n])
        }
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
