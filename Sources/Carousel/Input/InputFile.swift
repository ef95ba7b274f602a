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
/// read only once, so what its read gave (its bytes, or why it failed) is kept for the rest
/// of the run, and a second read of the same pipe (the command line reads its config again
/// to name a key in an error) gets the same at once; a second read for another use
/// (`--config - --script-file -`) is refused.
///
/// A reader that knows how its files start (a PNG's signature) says so, and a file that
/// starts otherwise is read no further than its first bytes, enough to tell what it is: a
/// movie given as an image is not read whole before it is refused, nor `<(yes)` to the limit.
package enum InputFile {
    /// Why a file could not be read.
    struct Failure: Error {
        /// One line: e.g. "not a regular file (a character device)".
        let reason: String
    }

    /// A pipe's read: what it was read as, and its bytes or why they could not be read.
    private struct StreamRead {
        let use: String
        let result: Result<Data, Failure>
    }

    /// What the run reads from pipes, and standard input's state.
    private struct Streams {
        /// Each pipe read, by its device and inode.
        var read: [Node: StreamRead] = [:]
        /// The pipes being read now; another thread wanting one waits for its read.
        var reading: Set<Node> = []
        /// What standard input (`-`) was first read as.
        var standardInputUse: String?
        /// Whether the caller closed standard input (the command line opens it on
        /// `/dev/null` then, so that no file takes its number).
        var standardInputIsClosed = false
    }

    /// A file's device and inode.
    private struct Node: Hashable {
        let device: UInt64
        let inode: UInt64
        init(_ info: stat) {
            device = UInt64(truncatingIfNeeded: info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// The pipes read so far, under `lock`.
    nonisolated(unsafe) private static var streams = Streams()
    private static let lock = Lock()

    /// The name that stands for standard input in a path option.
    static let standardInputPath = "-"

    /// How a path is named in messages: standard input as "standard input", any other path as given.
    static func displayName(_ path: String) -> String {
        path == standardInputPath ? "standard input" : path
    }

    /// Says that the caller closed standard input, so `-` is refused as closed rather than
    /// read as the `/dev/null` that stands in its place.
    package static func noteStandardInputClosed() {
        lock.lock()
        defer { lock.unlock() }
        streams.standardInputIsClosed = true
    }

    /// How the files of a use start: a file that does not start with `prefix` is read only as
    /// far as its first `kept` bytes (at least the prefix's length), which the caller's own
    /// check then refuses.
    struct Opening {
        let prefix: [UInt8]
        let kept: Int

        init(prefix: [UInt8], kept: Int) {
            self.prefix = prefix
            self.kept = max(kept, prefix.count)
        }

        /// Any start: every file is read whole.
        static let any = Opening(prefix: [], kept: 0)
    }

    /// The bytes of the regular file or pipe at `path` (`-`: standard input), at most `limit`
    /// of them; `use` names what the bytes are read as ("config file"), for a second read.
    /// A file that does not start as `opening` says is read only as far as its first bytes,
    /// whatever its size.
    static func read(_ path: String, limit: Int, as use: String, opening: Opening = .any) throws(Failure) -> Data {
        if path == standardInputPath { return try readStandardInput(limit: limit, as: use, opening) }
        // A FIFO is known by its path, so that it is opened once, waiting for a writer as
        // `cat` does; opening it first without waiting would let a writer in that could write
        // everything and close before the second open, which would then wait for another.
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(reason: FileErrors.posixReason(errno)) }
        if info.st_mode & S_IFMT == S_IFIFO {
            let node = Node(info)
            return try readOnce(node, as: use, source: "the pipe") { () throws(Failure) in
                let fd = open(path, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { throw Failure(reason: FileErrors.posixReason(errno)) }
                var opened = stat()
                guard fstat(fd, &opened) == 0, opened.st_mode & S_IFMT == S_IFIFO, Node(opened) == node else {
                    close(fd)
                    throw Failure(reason: "the FIFO was replaced while it was opened")
                }
                return fd
            } read: { fd throws(Failure) in try readStream(fd, limit: limit, opening) }
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw Failure(reason: FileErrors.posixReason(errno)) }
        defer { close(fd) }
        guard fstat(fd, &info) == 0 else { throw Failure(reason: FileErrors.posixReason(errno)) }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else { throw Failure(reason: "not a regular file (\(describe(kind)))") }
        return try readRegular(fd, size: Int(info.st_size), limit: limit, opening)
    }

    /// Standard input's bytes: a regular file from its start, a pipe or socket to its end.
    private static func readStandardInput(limit: Int, as use: String, _ opening: Opening) throws(Failure) -> Data {
        lock.lock()
        if streams.standardInputIsClosed {
            lock.unlock()
            throw Failure(reason: "standard input is closed; pipe the file in, or give its path")
        }
        if let first = streams.standardInputUse, first != use {
            lock.unlock()
            throw Failure(reason: "standard input was already read as the \(first); give a file's path for one of them")
        }
        streams.standardInputUse = use
        lock.unlock()
        let fd = dup(STDIN_FILENO)
        guard fd >= 0 else { throw Failure(reason: FileErrors.posixReason(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(reason: FileErrors.posixReason(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return try readRegular(fd, size: Int(info.st_size), limit: limit, opening)
        case S_IFIFO, S_IFSOCK:
            return try readOnce(Node(info), as: use, source: "standard input") { () throws(Failure) in
                let copy = dup(fd)
                guard copy >= 0 else { throw Failure(reason: FileErrors.posixReason(errno)) }
                return copy
            } read: { fd throws(Failure) in try readStream(fd, limit: limit, opening) }
        case S_IFCHR where isatty(fd) == 1:
            throw Failure(reason: "standard input is a terminal; pipe the file in, or give its path")
        case let kind:
            throw Failure(reason: "not a regular file (\(describe(kind)))")
        }
    }

    /// The pipe `node`'s bytes: read once through the descriptor `open` gives (which `read`
    /// reads, and which is closed after), then kept. A thread that wants a pipe another is
    /// reading waits for that read; no lock is held while a pipe is opened or read.
    private static func readOnce(_ node: Node, as use: String, source: String,
                                   open: () throws(Failure) -> Int32,
                                   read: (Int32) throws(Failure) -> Data) throws(Failure) -> Data {
        lock.lock()
        while streams.reading.contains(node) { lock.wait() }
        if let kept = streams.read[node] {
            lock.unlock()
            guard kept.use == use else {
                throw Failure(reason: "\(source) was already read as the \(kept.use); give a file's path for one of them")
            }
            return try kept.result.get()
        }
        streams.reading.insert(node)
        lock.unlock()
        let result: Result<Data, Failure>
        do throws(Failure) {
            let fd = try open()
            defer { close(fd) }
            result = .success(try read(fd))
        } catch {
            result = .failure(error)
        }
        lock.lock()
        streams.reading.remove(node)
        streams.read[node] = StreamRead(use: use, result: result)
        lock.broadcast()
        lock.unlock()
        return try result.get()
    }

    /// A regular file's bytes, read from its start whatever the descriptor's offset (standard
    /// input read twice, or a `/dev/fd/N` that shares its offset). A file that does not start
    /// as `opening` says gives its first bytes alone, whatever its size.
    private static func readRegular(_ fd: Int32, size: Int, limit: Int, _ opening: Opening) throws(Failure) -> Data {
        var head = Data()
        if !opening.prefix.isEmpty {
            head = try readStart(fd, size: min(size, opening.kept))
            guard head.starts(with: opening.prefix) else { return head }
        }
        guard size <= limit else {
            throw Failure(reason: "the file is \(size) bytes, over the limit of \(limit) bytes")
        }
        return try readStart(fd, size: size, after: head)
    }

    /// The first `size` bytes of a regular file, or fewer if it ends before; `head`, its first
    /// bytes already read, is not read again.
    ///
    /// The bytes go into memory taken with `malloc`, which says when it has none to give: a
    /// file larger than the run may hold (under `ulimit -v`) is refused in a line, where the
    /// allocation of `Data(count:)` ended the run with a crash and a backtrace.
    private static func readStart(_ fd: Int32, size: Int, after head: Data = Data()) throws(Failure) -> Data {
        let capacity = max(size, head.count)
        guard let buffer = malloc(max(capacity, 1)) else {
            throw Failure(reason: "the file is \(size) bytes, more than this run can hold in memory")
        }
        head.copyBytes(to: buffer.assumingMemoryBound(to: UInt8.self), count: head.count)
        var done = head.count
        while done < size {
            let n = pread(fd, buffer + done, size - done, off_t(done))
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                let reason = FileErrors.posixReason(errno)
                free(buffer)
                throw Failure(reason: reason)
            }
            if n == 0 { break }
            done += n
        }
        return Data(bytesNoCopy: buffer, count: done, deallocator: .free)
    }

    /// A pipe's bytes to its end; more than `limit` is refused as soon as it is seen. A pipe
    /// that does not start as `opening` says gives its first bytes alone, and is read no further.
    ///
    /// The bytes are read into memory taken with `malloc` and grown with `realloc`, twice the
    /// size each time, so that a pipe giving more than the run may hold is refused in a line
    /// rather than ending the run, as ``readStart(_:size:after:)`` does for a file.
    private static func readStream(_ fd: Int32, limit: Int, _ opening: Opening) throws(Failure) -> Data {
        var capacity = 1 << 16
        guard var buffer = malloc(capacity) else { throw Failure(reason: "the run has no memory left to read the pipe") }
        var count = 0
        var checked = opening.prefix.isEmpty
        func fail(_ reason: String) -> Failure {
            free(buffer)
            return Failure(reason: reason)
        }
        while true {
            if count == capacity {
                // Room for one more byte than the limit, so that a pipe giving more is seen.
                let grown = min(capacity * 2, limit == .max ? limit : limit + 1)
                if grown > capacity, let moved = realloc(buffer, grown) {
                    buffer = moved
                    capacity = grown
                } else {
                    // No room to grow: the pipe is refused only if it has more to give.
                    var byte: UInt8 = 0
                    var n = POSIX.read(fd, &byte, 1)
                    while n < 0 && errno == EINTR { n = POSIX.read(fd, &byte, 1) }
                    if n == 0 { break }
                    throw fail(n < 0 ? FileErrors.posixReason(errno)
                               : "the pipe gives more bytes than this run can hold in memory (\(count) read)")
                }
            }
            let n = POSIX.read(fd, buffer + count, capacity - count)
            if n < 0 {
                if errno == EINTR { continue }
                throw fail(FileErrors.posixReason(errno))
            }
            if n == 0 { break }
            guard count + n <= limit else {
                throw fail("the pipe gives more than the limit of \(limit) bytes")
            }
            count += n
            if !checked && count >= opening.kept {
                checked = true
                let start = UnsafeBufferPointer(start: buffer.assumingMemoryBound(to: UInt8.self), count: count)
                guard start.starts(with: opening.prefix) else {
                    count = opening.kept
                    break
                }
            }
        }
        return Data(bytesNoCopy: buffer, count: count, deallocator: .free)
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
