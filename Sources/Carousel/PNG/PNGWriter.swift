import CLibPNG
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// PNG written chunk by chunk, with zlib's deflate (``Deflater``): the quick encoding of
/// `carousel frames` (``encodeQuickly(_:name:)``), and the chunks that ``Deinterlacer``'s
/// rewrite and ``APNGEncoder`` write.
///
/// `carousel frames` writes every distinct frame of a render, and libpng's quick setting
/// (`PNG_IMAGE_FLAG_FAST`: rows unfiltered, zlib level 3) spent nearly all of that command's
/// time in zlib's search for repeated strings: 89% of a photographs export's CPU samples
/// (`perf record`). Here each row is Paeth-filtered and deflated at level 1 with run-length
/// matches only (zlib's `Z_RLE`): a frame's flat areas and smooth gradients filter to runs
/// of zeros, which run-length matching codes as well as a search does, and photographs,
/// which repeat few strings, filter to small residuals that Huffman coding shrinks. The
/// benchmark's exports (`python3 bench/render-cpu.py --frames`): photographs 95 MB in
/// 0.32 s against 140 MB in 0.67 s, gradients 117 MB in 0.58 s against 185 MB in 1.05 s;
/// docs/behaviour.md (*`frames` PNGs*) has the figures.
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
        guard width > 0, height > 0 else {
            throw .encodingFailed(file: name, reason: "an image of \(width)x\(height) has no pixels to write")
        }
        guard width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .encodingFailed(file: name, reason: "a PNG is at most \(Int32.max) pixels each way, not \(width)x\(height)")
        }
        var out = signature
        // Width, height, 8 bits, colour type 6 (RGBA), deflate, adaptive filtering, no interlace.
        appendChunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0], to: &out)
        appendChunk("sRGB", [0], to: &out)  // perceptual
        do throws(Deflater.Failure) {
            let deflater = try Deflater(level: 1, strategy: Z_RLE, output: idatBytes)
            try image.pixels.withUnsafeBufferPointer { pixels throws(Deflater.Failure) in
                try writeRows(pixels, width: width, height: height, to: deflater) { appendChunk("IDAT", $0, to: &out) }
            }
            try deflater.finish { appendChunk("IDAT", $0, to: &out) }
        } catch {
            throw .encodingFailed(file: name, reason: error.reason)
        }
        appendChunk("IEND", [], to: &out)
        return Data(out)
    }

    /// Filters the rows of `pixels` (`width` x `height` RGBA) into `deflater` a band at a time,
    /// each row with its filter-type byte (4, Paeth); `emit` gets the deflater's output.
    private static func writeRows(_ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, to deflater: Deflater,
                                  emit: (UnsafeBufferPointer<UInt8>) -> Void) throws(Deflater.Failure) {
        guard let first = pixels.baseAddress else { return }
        let stride = width * 4, line = 1 + stride
        let rows = min(height, bandRows)
        let band = UnsafeMutablePointer<UInt8>.allocate(capacity: rows * line)
        let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: stride)
        zeros.initialize(repeating: 0, count: stride)
        defer {
            band.deallocate()
            zeros.deallocate()
        }
        var y = 0
        while y < height {
            let n = min(rows, height - y)
            for k in 0..<n {
                let row = first + (y + k) * stride
                band[k * line] = 4
                paeth(row, above: y + k == 0 ? UnsafePointer(zeros) : row - stride, count: stride, into: band + (k * line + 1))
            }
            try deflater.add(UnsafeBufferPointer(start: band, count: n * line), emit: emit)
            y += n
        }
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

    /// Appends a chunk to `out`: its length, type, body and CRC.
    static func appendChunk(_ type: String, _ body: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        var crc = crc32(0, typeBytes, uInt(typeBytes.count))
        // zlib's crc32 of no buffer is 0, not the CRC so far: an empty body adds nothing.
        if let base = body.baseAddress, body.count > 0 { crc = crc32(crc, base, uInt(body.count)) }
        out += bigEndian(UInt32(body.count))
        out += typeBytes
        out += body
        out += bigEndian(UInt32(truncatingIfNeeded: crc))
    }

    /// Appends a chunk of `body` to `out`.
    static func appendChunk(_ type: String, _ body: [UInt8], to out: inout [UInt8]) {
        body.withUnsafeBufferPointer { appendChunk(type, $0, to: &out) }
    }

    /// A chunk of `body`, alone.
    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        appendChunk(type, body, to: &out)
        return out
    }

    /// `v` as four bytes, most significant first.
    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
}
