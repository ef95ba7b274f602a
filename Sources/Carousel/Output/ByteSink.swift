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

/// Where encoded bytes go: a file, memory or standard output.
public protocol ByteSink: AnyObject {
    /// Appends `bytes`; throws when they cannot be written.
    func write(_ bytes: UnsafeRawBufferPointer) throws(CarouselError)
}

extension ByteSink {
    /// Appends `data`.
    public func write(_ data: Data) throws(CarouselError) {
        let result: Result<Void, CarouselError> = data.withUnsafeBytes { raw in
            Result { () throws(CarouselError) in try self.write(raw) }
        }
        try result.get()
    }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws(CarouselError) {
        let result: Result<Void, CarouselError> = bytes.withUnsafeBytes { raw in
            Result { () throws(CarouselError) in try self.write(raw) }
        }
        try result.get()
    }
}

/// A sink that may write again over bytes it has written, so an encoder can stream a file
/// whose header gives sizes known only at its end: memory, or a temporary file of the
/// run's own, but not a pipe, a device or a file opened to append.
protocol RewritableSink: ByteSink {
    /// Whether written bytes can be written over.
    var canRewrite: Bool { get }
    /// Bytes written so far.
    var written: Int { get }
    /// Writes `bytes` over those written at `offset`; `offset + bytes.count` is at most ``written``.
    func rewrite(_ bytes: [UInt8], at offset: Int) throws(CarouselError)
}

/// Collects bytes in memory.
public final class MemorySink: ByteSink, RewritableSink {
    /// Everything written so far.
    public private(set) var data = Data()

    /// Creates an empty sink.
    public init() {}

    /// Appends `bytes` to ``data``.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(CarouselError) {
        data.append(contentsOf: bytes)
    }

    var canRewrite: Bool { true }
    var written: Int { data.count }

    func rewrite(_ bytes: [UInt8], at offset: Int) throws(CarouselError) {
        precondition(offset >= 0 && offset + bytes.count <= data.count, "rewrite past the bytes written")
        data.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
    }
}

/// Writes to an open file descriptor (a temporary file, or standard output).
public final class FileDescriptorSink: ByteSink, RewritableSink {
    private let fd: Int32
    /// The output's name in errors.
    let name: String
    /// Bytes written so far.
    public private(set) var count = 0
    /// Whether `fd` is a new file of the run's own, written from its start and not to
    /// append, so bytes written can be written again at their offsets.
    let canRewrite: Bool

    /// A sink over `fd`; `name` is used in errors. The caller keeps ownership of `fd`.
    public convenience init(fd: Int32, name: String) {
        self.init(fd: fd, name: name, rewritable: false)
    }

    /// A sink over `fd`, which may be written over where `rewritable` (a new, empty file
    /// opened without `O_APPEND`).
    init(fd: Int32, name: String, rewritable: Bool) {
        self.fd = fd
        self.name = name
        self.canRewrite = rewritable
    }

    var written: Int { count }

    /// Writes `bytes` at `offset` with `pwrite`, which leaves the file's offset where it was.
    func rewrite(_ bytes: [UInt8], at offset: Int) throws(CarouselError) {
        precondition(canRewrite && offset >= 0 && offset + bytes.count <= count, "rewrite past the bytes written")
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(offset + done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw .output(name, FileErrors.posixReason(errno))
            }
            done += n
        }
    }

    /// Writes all of `bytes`, retrying interrupted writes, and waiting where `fd` is
    /// non-blocking and full (a pipe whose reader is slower, as a Node.js parent's standard
    /// output may be); throws naming the output on failure.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(CarouselError) {
        var offset = 0
        while offset < bytes.count {
            let n = POSIX.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    if poll(&ready, 1, -1) >= 0 || errno == EINTR { continue }
                }
                throw .output(name, FileErrors.posixReason(errno))
            }
            offset += n
        }
        count += bytes.count
    }
}
