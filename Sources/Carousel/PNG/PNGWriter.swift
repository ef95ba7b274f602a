import CLibPNG
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// PNG written chunk by chunk, with zlib's deflate: the quick encoding of `carousel frames`
/// (``encodeQuickly(_:)``), and the chunks and deflater that ``Deinterlacer``'s rewrite and
/// ``APNGEncoder`` share.
///
/// `carousel frames` writes every distinct frame of a render, and libpng's quick setting
/// (`PNG_IMAGE_FLAG_FAST`: rows unfiltered, zlib level 3) spent nearly all of that command's
/// time in zlib's search for repeated strings: 89% of a photographs export's CPU samples
/// (`perf record`). Here each row is Paeth-filtered and deflated at level 1 with run-length
/// matches only (zlib's `Z_RLE`): a frame's flat areas and smooth gradients filter to runs
/// of zeros, which run-length matching codes as well as a search does, and photographs,
/// which repeat few strings, filter to small residuals that Huffman coding shrinks. On the
/// benchmark's exact frames (distinct frames, zlib through Python, the filter not timed),
/// against libpng's quick setting: photographs 374 against 549 KiB a frame, 6.9 against
/// 17.3 ms; gradients 204 against 318 KiB, 6.9 against 11.6 ms; sample banners 106 against
/// 125 KiB, 3.2 against 4.0 ms. docs/behaviour.md (*`frames` PNGs*) has the export's times.
enum PNGWriter {
    /// The eight bytes every PNG starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// How many rows are filtered before they are handed to the deflater.
    static let bandRows = 16

    /// The most compressed bytes in one IDAT chunk.
    static let idatBytes = 1 << 18

    /// `image` as an 8-bit RGBA PNG with an sRGB chunk (as libpng's simplified writer marks
    /// it), every row Paeth-filtered, the data deflated at level 1 with run-length matches
    /// only; `name` is used in errors.
    static func encodeQuickly(_ image: RGBAImage, name: String = "<memory>") throws(PNGError) -> Data {
        let width = image.width, height = image.height
        guard width > 0, height > 0, width <= Int(Int32.max) / 4, height <= Int(Int32.max) else {
            throw .encodingFailed(file: name, reason: "a PNG is 1...\(Int32.max / 4) pixels wide and 1...\(Int32.max) high, "
                                  + "not \(width)x\(height)")
        }
        var out = signature
        // Width, height, 8 bits, colour type 6 (RGBA), deflate, adaptive filtering, no interlace.
        out += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0])
        out += chunk("sRGB", [0])  // perceptual
        let deflater: Deflater
        do {
            deflater = try Deflater(level: 1, strategy: Z_RLE, output: idatBytes)
        } catch {
            throw .encodingFailed(file: name, reason: error.reason)
        }
        let stride = width * 4, line = 1 + stride
        let rows = min(height, bandRows)
        let band = UnsafeMutablePointer<UInt8>.allocate(capacity: rows * line)
        let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: stride)
        zeros.initialize(repeating: 0, count: stride)
        defer {
            band.deallocate()
            zeros.deallocate()
        }
        do throws(Deflater.Failure) {
            try image.pixels.withUnsafeBufferPointer { pixels throws(Deflater.Failure) in
                var y = 0
                while y < height {
                    let n = min(rows, height - y)
                    for k in 0..<n {
                        let row = pixels.baseAddress! + (y + k) * stride
                        let above = y + k == 0 ? UnsafePointer(zeros) : row - stride
                        band[k * line] = 4  // Paeth
                        paeth(row, above: above, count: stride, into: band + (k * line + 1))
                    }
                    try deflater.add(UnsafeBufferPointer(start: band, count: n * line)) { out += chunk("IDAT", $0) }
                    y += n
                }
            }
            try deflater.finish { out += chunk("IDAT", $0) }
        } catch {
            throw .encodingFailed(file: name, reason: error.reason)
        }
        out += chunk("IEND", [])
        return Data(out)
    }

    /// The Paeth filter of `count` bytes of an RGBA row (4 bytes a pixel), `above` the row
    /// before it (zeros for the first): each byte less its predictor, the one of the left,
    /// upper and upper-left bytes nearest to left + upper - upper-left (the left first on
    /// ties, then the upper). No byte depends on another's output, so the loop vectorizes.
    @inline(__always)
    static func paeth(_ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, count: Int,
                      into out: UnsafeMutablePointer<UInt8>) {
        for i in 0..<min(4, count) { out[i] = row[i] &- above[i] }  // no left: the upper byte predicts
        guard count > 4 else { return }
        let left = row, upperLeft = above
        for i in 4..<count {
            let a = Int16(left[i &- 4]), b = Int16(above[i]), c = Int16(upperLeft[i &- 4])
            let pa = abs(b &- c), pb = abs(a &- c), pc = abs(a &+ b &- c &- c)
            let predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            out[i] = row[i] &- UInt8(truncatingIfNeeded: predictor)
        }
    }

    /// A chunk: its length, type, body and CRC.
    static func chunk(_ type: String, _ body: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var crc = crc32(0, typeBytes, uInt(typeBytes.count))
        crc = crc32(crc, body.baseAddress, uInt(body.count))
        var out = bigEndian(UInt32(body.count)) + typeBytes
        out += body
        return out + bigEndian(UInt32(truncatingIfNeeded: crc))
    }

    /// A chunk of `body`.
    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        body.withUnsafeBufferPointer { chunk(type, $0) }
    }

    /// `v` as four bytes, most significant first.
    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
}

/// zlib's deflate over bytes handed in as they are made, its output handed on in pieces of
/// at most a set size (an IDAT chunk each), so neither the raw nor the compressed data is
/// ever held whole.
final class Deflater {
    /// Why deflating failed.
    struct Failure: Error {
        let reason: String
    }

    private let stream: UnsafeMutablePointer<z_stream>
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int

    /// A deflater at zlib `level` with `strategy` (`Z_DEFAULT_STRATEGY`, `Z_RLE`, ...), whose
    /// output comes in pieces of at most `output` bytes.
    init(level: Int32, strategy: Int32, output: Int) throws(Failure) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        capacity = max(1, output)
        buffer = .allocate(capacity: capacity)
        guard deflateInit2_(stream, level, Z_DEFLATED, MAX_WBITS, 8, strategy, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deallocate()
            buffer.deallocate()
            throw Failure(reason: "cannot start deflating")
        }
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
        stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress)
        stream.pointee.avail_in = uInt(bytes.count)
        while stream.pointee.avail_in > 0 {
            guard CLibPNG.deflate(stream, Z_NO_FLUSH) != Z_STREAM_ERROR else { throw Failure(reason: "cannot deflate") }
            if stream.pointee.avail_out == 0 { hand(emit) }
        }
    }

    /// Compresses `bytes`.
    func add(_ bytes: [UInt8], emit: (UnsafeBufferPointer<UInt8>) -> Void) throws(Failure) {
        try bytes.withUnsafeBufferPointer { input throws(Failure) in try add(input, emit: emit) }
    }

    /// Ends the stream; `emit` gets the rest of the output, in one or more pieces.
    func finish(emit: (UnsafeBufferPointer<UInt8>) -> Void) throws(Failure) {
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        while true {
            let status = CLibPNG.deflate(stream, Z_FINISH)
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else { throw Failure(reason: "cannot deflate") }
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
