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

/// Collects bytes in memory.
public final class MemorySink: ByteSink {
    /// Everything written so far.
    public private(set) var data = Data()

    /// Creates an empty sink.
    public init() {}

    /// Appends `bytes` to ``data``.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(CarouselError) {
        data.append(contentsOf: bytes)
    }
}

/// Writes to an open file descriptor (a temporary file, or standard output).
public final class FileDescriptorSink: ByteSink {
    private let fd: Int32
    private let name: String
    /// Bytes written so far.
    public private(set) var count = 0

    /// A sink over `fd`; `name` is used in errors. The caller keeps ownership of `fd`.
    public init(fd: Int32, name: String) {
        self.fd = fd
        self.name = name
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
