import CLibPNG

/// zlib's deflate over bytes handed in as they are made, its output handed on in pieces of
/// at most a set size (an IDAT chunk each), so neither the raw nor the compressed data is
/// ever held whole. ``PNGWriter`` and ``Deinterlacer`` write their image data through it.
///
/// A class rather than a `~Copyable` owner: Swift 6.3 stops with "copy of noncopyable typed
/// value. This is a compiler bug" where a noncopyable deflater is bound inside `do`/`catch`.
final class Deflater {
    /// Why deflating failed.
    struct Failure: Error {
        let reason: String
    }

    private let stream: UnsafeMutablePointer<z_stream>
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int

    /// The most input handed to zlib in one call: its counts are 32-bit.
    private static let largestInput = 1 << 30

    /// A deflater at zlib `level` with `strategy` (`Z_DEFAULT_STRATEGY`, `Z_RLE`, ...), whose
    /// output comes in pieces of at most `output` bytes.
    init(level: Int32, strategy: Int32, output: Int) throws(Failure) {
        // zlib is started on local memory: the properties are set only once it has, so a
        // failure frees that memory here and deinit never sees it.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard deflateInit2_(stream, level, Z_DEFLATED, MAX_WBITS, 8, strategy, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deallocate()
            throw Failure(reason: "cannot start deflating")
        }
        self.stream = stream
        capacity = max(1, output)
        buffer = .allocate(capacity: capacity)
        stream.pointee.next_out = buffer
        stream.pointee.avail_out = uInt(capacity)
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
        buffer.deallocate()
    }

    /// Compresses `bytes`; `emit` gets each piece of output that fills.
    func add(_ bytes: UnsafeBufferPointer<UInt8>, emit: (UnsafeBufferPointer<UInt8>) -> Void) throws(Failure) {
        guard let base = bytes.baseAddress else { return }
        var at = 0
        while at < bytes.count {
            let n = min(bytes.count - at, Deflater.largestInput)
            stream.pointee.next_in = UnsafeMutablePointer(mutating: base + at)
            stream.pointee.avail_in = uInt(n)
            while stream.pointee.avail_in > 0 {
                // With room to write and input to read, zlib makes progress or reports an error.
                guard CLibPNG.deflate(stream, Z_NO_FLUSH) == Z_OK else { throw Failure(reason: "cannot deflate") }
                if stream.pointee.avail_out == 0 { hand(emit) }
            }
            at += n
        }
    }

    /// Compresses `bytes`.
    func add(_ bytes: [UInt8], emit: (UnsafeBufferPointer<UInt8>) -> Void) throws(Failure) {
        try bytes.withUnsafeBufferPointer { input throws(Failure) in try add(input, emit: emit) }
    }

    /// Ends the stream; `emit` gets the rest of the output, in one or more pieces, none empty.
    func finish(emit: (UnsafeBufferPointer<UInt8>) -> Void) throws(Failure) {
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        while true {
            // There is always room to write when deflate is called (a full buffer is handed on
            // first), so anything but progress or the end is an error.
            let status = CLibPNG.deflate(stream, Z_FINISH)
            guard status == Z_OK || status == Z_STREAM_END else { throw Failure(reason: "cannot deflate") }
            if status == Z_STREAM_END || stream.pointee.avail_out == 0 { hand(emit) }
            if status == Z_STREAM_END { return }
        }
    }

    /// Hands on what the buffer holds (when it holds anything) and empties it.
    private func hand(_ emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        let count = capacity - Int(stream.pointee.avail_out)
        if count > 0 { emit(UnsafeBufferPointer(start: buffer, count: count)) }
        stream.pointee.next_out = buffer
        stream.pointee.avail_out = uInt(capacity)
    }
}
