import CLibPNG
import Foundation

/// Rewrites an interlaced (Adam7) PNG as the same image without interlacing.
///
/// libpng 1.6's simplified reader mis-orders rows when it reduces an interlaced
/// 16-bit image to 8 bits. Rewriting the file first (inflate, undo each pass's row
/// filters, put every pixel in place, deflate again; every other chunk kept as it
/// was) lets libpng decode it exactly as it decodes the non-interlaced file.
enum Deinterlacer {
    /// Why a file could not be rewritten (libpng reports the same damage when it reads it).
    struct Failure: Error {
        let reason: String
    }

    /// The non-interlaced PNG for interlaced PNG `data`.
    static func rewrite(_ data: Data) throws(Failure) -> Data {
        let bytes = [UInt8](data)
        var chunks: [(type: String, body: ArraySlice<UInt8>)] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 0, offset + 12 + length <= bytes.count else { throw Failure(reason: "truncated file (read beyond end of data)") }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let stored = UInt(bytes[offset + 8 + length]) << 24 | UInt(bytes[offset + 9 + length]) << 16
                | UInt(bytes[offset + 10 + length]) << 8 | UInt(bytes[offset + 11 + length])
            let computed = Array(bytes[(offset + 4)..<(offset + 8 + length)]).withUnsafeBufferPointer {
                crc32(0, $0.baseAddress, uInt($0.count))
            }
            guard UInt(computed) == stored else { throw Failure(reason: "\(type): CRC error") }
            chunks.append((type, bytes[(offset + 8)..<(offset + 8 + length)]))
            offset += 12 + length
            if type == "IEND" { break }
        }
        guard let ihdr = chunks.first, ihdr.type == "IHDR", ihdr.body.count == 13 else { throw Failure(reason: "missing IHDR") }
        let h = Array(ihdr.body)
        let width = Int(h[0]) << 24 | Int(h[1]) << 16 | Int(h[2]) << 8 | Int(h[3])
        let height = Int(h[4]) << 24 | Int(h[5]) << 16 | Int(h[6]) << 8 | Int(h[7])
        let depth = Int(h[8]), colorType = Int(h[9])
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 1
        let bitsPerPixel = channels * depth
        let bytesPerPixel = max(1, bitsPerPixel / 8)
        func rowBytes(_ w: Int) -> Int { (w * bitsPerPixel + 7) / 8 }

        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        let sizes = passes.map { p -> (w: Int, h: Int) in
            (width > p.0 ? (width - p.0 + p.2 - 1) / p.2 : 0, height > p.1 ? (height - p.1 + p.3 - 1) / p.3 : 0)
        }
        let rawSize = sizes.reduce(0) { $0 + ($1.w > 0 && $1.h > 0 ? $1.h * (1 + rowBytes($1.w)) : 0) }
        let compressed = chunks.filter { $0.type == "IDAT" }.flatMap { $0.body }
        var raw = [UInt8](repeating: 0, count: rawSize)
        var rawLength = uLongf(rawSize)
        let status = raw.withUnsafeMutableBufferPointer { out in
            compressed.withUnsafeBufferPointer { inp in
                uncompress(out.baseAddress, &rawLength, inp.baseAddress, uLong(inp.count))
            }
        }
        guard status == Z_OK, Int(rawLength) == rawSize else { throw Failure(reason: "IDAT: invalid compressed data") }

        // Unfilter each pass and place its pixels.
        let stride = rowBytes(width)
        var image = [UInt8](repeating: 0, count: height * stride)
        var at = 0
        for (p, size) in zip(passes, sizes) where size.w > 0 && size.h > 0 {
            let length = rowBytes(size.w)
            var previous = [UInt8](repeating: 0, count: length)
            for row in 0..<size.h {
                let filter = raw[at]
                var line = Array(raw[(at + 1)..<(at + 1 + length)])
                at += 1 + length
                for i in 0..<length {
                    let a = i >= bytesPerPixel ? Int(line[i - bytesPerPixel]) : 0
                    let b = Int(previous[i])
                    let c = i >= bytesPerPixel ? Int(previous[i - bytesPerPixel]) : 0
                    let predictor: Int
                    switch filter {
                    case 0: predictor = 0
                    case 1: predictor = a
                    case 2: predictor = b
                    case 3: predictor = (a + b) / 2
                    case 4:
                        let e = a + b - c, pa = abs(e - a), pb = abs(e - b), pc = abs(e - c)
                        predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                    default: throw Failure(reason: "IDAT: unknown filter type \(filter)")
                    }
                    line[i] = UInt8((Int(line[i]) + predictor) & 0xFF)
                }
                previous = line
                let y = p.1 + row * p.3
                for column in 0..<size.w {
                    let x = p.0 + column * p.2
                    copyPixel(from: line, at: column, to: &image, row: y * stride, at: x, bits: bitsPerPixel)
                }
            }
        }

        // Filter type 0 rows, deflated; every chunk but IHDR, IDAT and IEND kept in place.
        var plain = [UInt8]()
        plain.reserveCapacity(height * (stride + 1))
        for y in 0..<height {
            plain.append(0)
            plain += image[(y * stride)..<((y + 1) * stride)]
        }
        var deflated = [UInt8](repeating: 0, count: Int(compressBound(uLong(plain.count))))
        var deflatedLength = uLongf(deflated.count)
        let packed = deflated.withUnsafeMutableBufferPointer { out in
            plain.withUnsafeBufferPointer { inp in compress2(out.baseAddress, &deflatedLength, inp.baseAddress, uLong(inp.count), 6) }
        }
        guard packed == Z_OK else { throw Failure(reason: "cannot rewrite interlaced image") }
        var header = h
        header[12] = 0
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += chunk("IHDR", header[...])
        var wroteData = false
        for c in chunks.dropFirst() where c.type != "IEND" {
            if c.type == "IDAT" {
                if !wroteData { out += chunk("IDAT", deflated[0..<Int(deflatedLength)]) }
                wroteData = true
            } else {
                out += chunk(c.type, c.body)
            }
        }
        out += chunk("IEND", [][...])
        return Data(out)
    }

    private static func copyPixel(from line: [UInt8], at column: Int, to image: inout [UInt8], row: Int, at x: Int, bits: Int) {
        if bits >= 8 {
            let n = bits / 8
            for k in 0..<n { image[row + x * n + k] = line[column * n + k] }
            return
        }
        let perByte = 8 / bits, mask = (1 << bits) - 1
        let value = (Int(line[column / perByte]) >> ((perByte - 1 - column % perByte) * bits)) & mask
        let shift = (perByte - 1 - x % perByte) * bits
        image[row + x / perByte] = UInt8((Int(image[row + x / perByte]) & ~(mask << shift)) | (value << shift))
    }

    private static func chunk(_ type: String, _ body: ArraySlice<UInt8>) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var out = [UInt8(body.count >> 24 & 0xFF), UInt8(body.count >> 16 & 0xFF), UInt8(body.count >> 8 & 0xFF), UInt8(body.count & 0xFF)]
        out += typeBytes
        out += body
        var crc = crc32(0, typeBytes, uInt(typeBytes.count))
        crc = Array(body).withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
        out += [UInt8(crc >> 24 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return out
    }
}
