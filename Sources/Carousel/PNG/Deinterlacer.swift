import CLibPNG
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Rewrites an interlaced (Adam7) 16-bit PNG as the same image without interlacing,
/// streaming, so memory stays near the size of the files rather than of the pixels.
///
/// libpng 1.6's simplified reader mis-orders rows when it reduces an interlaced 16-bit
/// image to 8 bits. ``PNGCodec`` therefore lets libpng read the original first, which
/// gives the file libpng's own verdict on every chunk (the verdict it gives the
/// non-interlaced twin), and then decodes this rewrite for the pixels. The rewrite is
/// lenient by design: it only takes IHDR, the image data, and the chunks before the
/// image data (a file with any CRC wrong is refused before it comes here:
/// ``PNGChunks/defect(in:)``).
///
/// The pixels are never all in memory: each of the seven passes has its own inflater,
/// positioned at the pass's start, and the image is assembled eight rows at a time
/// (one row of each pass at most, four of pass 7) and deflated as it goes.
enum Deinterlacer {
    /// Why a file could not be rewritten.
    struct Failure: Error {
        let reason: String
    }

    /// Adam7: x0, y0, dx, dy of each pass.
    static let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]

    /// The non-interlaced PNG for the interlaced 16-bit PNG `data` (already accepted by libpng).
    static func rewrite(_ data: Data) throws(Failure) -> Data {
        let result: Result<Data, Failure> = data.withUnsafeBytes { raw in
            Result { () throws(Failure) in try rewrite(raw.bindMemory(to: UInt8.self)) }
        }
        return try result.get()
    }

    private static func rewrite(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> Data {
        let (header, kept, segments) = try chunks(bytes)
        let h = header
        let width = Int(h[0]) << 24 | Int(h[1]) << 16 | Int(h[2]) << 8 | Int(h[3])
        let height = Int(h[4]) << 24 | Int(h[5]) << 16 | Int(h[6]) << 8 | Int(h[7])
        let colorType = Int(h[9])
        guard h[8] == 16, let channels = [0: 1, 2: 3, 4: 2, 6: 4][colorType], width > 0, height > 0 else {
            throw Failure(reason: "IHDR: not an interlaced 16-bit image")
        }
        let pixelBytes = 2 * channels
        let stride = width * pixelBytes

        // One inflater per pass over the file's own image data, each skipped to where
        // its rows start in the raw stream.
        var readers: [PassReader?] = []
        defer { for k in readers.indices { readers[k]?.close() } }
        var offset = 0
        for p in passes {
            let w = width > p.0 ? (width - p.0 + p.2 - 1) / p.2 : 0
            let rows = height > p.1 ? (height - p.1 + p.3 - 1) / p.3 : 0
            guard w > 0, rows > 0 else {
                readers.append(nil)
                continue
            }
            readers.append(try PassReader(segments: segments, skip: offset, rowLength: w * pixelBytes, pixelBytes: pixelBytes))
            offset += rows * (1 + w * pixelBytes)
        }

        var out = PNGWriter.signature
        var header13 = header
        header13[12] = 0
        PNGWriter.appendChunk("IHDR", header13, to: &out)
        for c in kept { PNGWriter.appendChunk(c.type, Array(c.body), to: &out) }
        // Level 1 with run-length matches only, the strategy `frames` deflates with: zlib's
        // search for repeated strings at level 1 took most of the time on 16-bit pictures,
        // which repeat few (docs/behaviour.md, *Interlaced 16-bit pictures read sooner*: a
        // 6000x6000 gradient with noise 8.6-8.8 s before, 5.5-5.7 s after).
        let deflater: Deflater
        do {
            deflater = try Deflater(level: 1, strategy: Z_RLE, output: 1 << 20)
        } catch {
            throw Failure(reason: error.reason)
        }
        /// Runs a step of the deflater, its failure said as the rewrite's.
        func deflating(_ step: () throws(Deflater.Failure) -> Void) throws(Failure) {
            do {
                try step()
            } catch {
                throw Failure(reason: "cannot deflate the rewrite")
            }
        }
        var row = [UInt8](repeating: 0, count: 1 + stride)  // filter type 0, then the pixels
        for y in 0..<height {
            for (k, p) in passes.enumerated() where y >= p.1 && (y - p.1) % p.3 == 0 {
                guard readers[k] != nil else { continue }
                try readers[k]!.nextRow { line in
                    var column = 0
                    var x = p.0
                    while x < width {
                        let from = column * pixelBytes, to = 1 + x * pixelBytes
                        for b in 0..<pixelBytes { row[to + b] = line[from + b] }
                        column += 1
                        x += p.2
                    }
                }
            }
            try deflating { () throws(Deflater.Failure) in try deflater.add(row) { PNGWriter.appendChunk("IDAT", $0, to: &out) } }
        }
        try deflating { () throws(Deflater.Failure) in try deflater.finish { PNGWriter.appendChunk("IDAT", $0, to: &out) } }
        PNGWriter.appendChunk("IEND", [], to: &out)
        return Data(out)
    }

    /// IHDR's body, the chunks before the first IDAT worth keeping, and where the image data is.
    private static func chunks(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure)
        -> ([UInt8], [(type: String, body: ArraySlice<UInt8>)], [UnsafeBufferPointer<UInt8>]) {
        var header: [UInt8]?
        var kept: [(type: String, body: ArraySlice<UInt8>)] = []
        var segments: [UnsafeBufferPointer<UInt8>] = []
        // libpng accepted the file before it comes here; a chunk that runs past the end ends the walk.
        PNGChunks.forEach(in: bytes) { type, range in
            let body = UnsafeBufferPointer(rebasing: bytes[range])
            switch type {
            case "IHDR" where header == nil:
                header = Array(body)
            case "IDAT":
                segments.append(body)
            case "IEND":
                break
            default:
                if segments.isEmpty && type != "IHDR" { kept.append((type, Array(body)[...])) }
            }
        }
        guard let header, header.count == 13 else { throw Failure(reason: "missing IHDR") }
        return (header, kept, segments)
    }
}

/// The rows of one Adam7 pass, inflated and unfiltered one at a time, from the file's
/// IDAT chunks in place (no copy of the image data).
private struct PassReader {
    private let stream: UnsafeMutablePointer<z_stream>
    private let segments: [UnsafeBufferPointer<UInt8>]
    private var segment = 0
    private let rowLength: Int
    private let pixelBytes: Int
    private var previous: [UInt8]
    private var line: [UInt8]

    /// An inflater over `segments` that has consumed the first `skip` raw bytes.
    init(segments: [UnsafeBufferPointer<UInt8>], skip: Int, rowLength: Int, pixelBytes: Int) throws(Deinterlacer.Failure) {
        self.segments = segments
        self.rowLength = rowLength
        self.pixelBytes = pixelBytes
        previous = [UInt8](repeating: 0, count: rowLength)
        line = [UInt8](repeating: 0, count: 1 + rowLength)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard inflateInit_(stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deallocate()
            throw Deinterlacer.Failure(reason: "IDAT: cannot start inflating")
        }
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        var left = skip
        while left > 0 {
            let n = min(left, scratch.count)
            try inflate(into: &scratch, count: n)
            left -= n
        }
        _ = scratch
    }

    func close() {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Fills the first `count` bytes of `buffer`, moving on through the IDAT chunks.
    private mutating func inflate(into buffer: inout [UInt8], count: Int) throws(Deinterlacer.Failure) {
        var failed = false
        buffer.withUnsafeMutableBufferPointer { out in
            stream.pointee.next_out = out.baseAddress
            stream.pointee.avail_out = uInt(count)
            while stream.pointee.avail_out > 0 {
                if stream.pointee.avail_in == 0 {
                    guard segment < segments.count else { failed = true; return }
                    stream.pointee.next_in = UnsafeMutablePointer(mutating: segments[segment].baseAddress)
                    stream.pointee.avail_in = uInt(segments[segment].count)
                    segment += 1
                    continue
                }
                let status = CLibPNG.inflate(stream, Z_NO_FLUSH)
                if status == Z_STREAM_END && stream.pointee.avail_out > 0 { failed = true; return }
                if status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR { failed = true; return }
            }
        }
        if failed { throw Deinterlacer.Failure(reason: "IDAT: invalid compressed data") }
    }

    /// Hands the next row of the pass, unfiltered, to `body`.
    mutating func nextRow(_ body: ([UInt8]) -> Void) throws(Deinterlacer.Failure) {
        var buffer: [UInt8] = []
        swap(&buffer, &line)
        defer { swap(&buffer, &line) }
        try inflate(into: &buffer, count: 1 + rowLength)
        let filter = buffer[0]
        let bpp = pixelBytes
        var row = previous
        try buffer.withUnsafeBufferPointer { raw throws(Deinterlacer.Failure) in
            try previous.withUnsafeBufferPointer { up throws(Deinterlacer.Failure) in
                try row.withUnsafeMutableBufferPointer { out throws(Deinterlacer.Failure) in
                    for i in 0..<rowLength {
                        let x = Int(raw[i + 1])
                        let a = i >= bpp ? Int(out[i - bpp]) : 0
                        let b = Int(up[i])
                        let predictor: Int
                        switch filter {
                        case 0: predictor = 0
                        case 1: predictor = a
                        case 2: predictor = b
                        case 3: predictor = (a + b) / 2
                        case 4:
                            let c = i >= bpp ? Int(up[i - bpp]) : 0
                            let e = a + b - c, pa = abs(e - a), pb = abs(e - b), pc = abs(e - c)
                            predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                        default: throw Deinterlacer.Failure(reason: "IDAT: unknown filter type \(filter)")
                        }
                        out[i] = UInt8(truncatingIfNeeded: x + predictor)
                    }
                }
            }
        }
        previous = row
        body(row)
    }
}
