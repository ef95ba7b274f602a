/// Where ordered dithering pays: the pixels of a picture that are worth dithering.
///
/// A dither pattern approximates a colour the palette lacks by mixing entries, which hides
/// bands in smooth regions. At an edge or in texture the picture already changes from
/// pixel to pixel: there the pattern adds noise of its own, which the eye and SSIMULACRA2
/// see, and which costs LZW bytes, while the nearest entry's error is masked by the
/// picture itself. A pixel is left undithered (mapped to its nearest entry) when a
/// neighbour differs from it by ``edge`` or more, in 2|dr| + 4|dg| + |db|: a smooth
/// gradient, whose neighbours differ by a level or so per channel, stays dithered.
///
/// The mask is made once from the strip and cut with it, so a pixel's treatment travels
/// with the content as it moves.
struct DitherMask: Sendable {
    /// One flag per pixel of the picture it was made from, row by row.
    let flags: [Bool]
    let width: Int
    let height: Int

    /// The mask of `image` (a strip).
    init(_ image: RGBAImage) {
        flags = DitherMask.undithered(image)
        width = image.width
        height = image.height
    }

    /// The flags of columns `x..<x + width` for a picture `height` rows tall, row by row;
    /// rows below the mask's own are dithered.
    func cut(x: Int, width: Int, height: Int) -> [Bool] {
        var cut: [Bool] = []
        cut.reserveCapacity(width * height)
        for y in 0..<min(height, self.height) {
            let row = y * self.width + x
            cut.append(contentsOf: flags[row..<(row + width)])
        }
        cut.append(contentsOf: repeatElement(false, count: width * height - cut.count))
        return cut
    }

    /// The difference to a neighbour from which a pixel is left undithered. Measured with
    /// `bench/quality-probe.py` (bytes as a multiple of ffmpeg's and SSIMULACRA2 means; sample
    /// banners / photos / gradients), against 1.099 / 1.180 / 1.159 and 87.74 / 79.19 /
    /// 80.92 with every pixel dithered:
    ///
    /// | edge | bytes | SSIMULACRA2 |
    /// |---|---|---|
    /// | 160 | 1.097 / 1.167 / 1.157 | 88.05 / 79.17 / 81.10 |
    /// | 84 | 1.096 / 1.149 / 1.154 | 88.07 / 79.21 / 81.19 |
    /// | 42 | 1.095 / 1.121 / 1.147 | 88.09 / 79.26 / 81.29 |
    /// | 21 | 1.094 / 1.083 / 1.126 | 88.11 / 79.40 / 81.37 |
    /// | 14 | 1.090 / 1.058 / 1.101 | 88.08 / 79.53 / 81.40 |
    /// | **10** | 1.087 / 1.040 / 1.083 | 88.06 / 79.60 / 81.32 |
    /// | 7 | 1.089 / 1.008 / 1.041 | 88.04 / 79.05 / 80.63 |
    /// | 4 | 1.071 / 0.991 / 0.978 | 86.95 / 78.68 / 72.74 (the gradients band) |
    static let edge: Int32 = 10

    /// One flag per pixel of `image`, row by row: true where the pixel is left undithered,
    /// that is where it differs by `edge` or more from a neighbour to its left, right, top
    /// or bottom.
    ///
    /// A pixel's flag depends on its own row and the rows beside it only, so the rows are
    /// flagged in bands, one parallel task each, and each neighbouring pair is compared once,
    /// without branches.
    static func undithered(_ image: RGBAImage, edge: Int32 = DitherMask.edge) -> [Bool] {
        let w = image.width, h = image.height
        guard w > 0, h > 0 else { return [] }
        let bandRows = max(32, (h + 7) / 8)
        let bands = Array(stride(from: 0, to: h, by: bandRows)).parallelMap { y in
            flagged(image, rows: y..<min(h, y + bandRows), edge: edge)
        }
        var flags: [Bool] = []
        flags.reserveCapacity(w * h)
        for band in bands { flags.append(contentsOf: band) }
        return flags
    }

    /// The flags of `rows` (see ``undithered(_:edge:)``).
    private static func flagged(_ image: RGBAImage, rows: Range<Int>, edge: Int32) -> [Bool] {
        let w = image.width, h = image.height
        var flags = [Bool](repeating: false, count: w * rows.count)
        // Per column: whether the pixel differs from the one to its right, and from the ones above and below.
        var across = [UInt8](repeating: 0, count: w + 1)
        var above = [UInt8](repeating: 0, count: w), below = [UInt8](repeating: 0, count: w)
        image.pixels.withUnsafeBytes { raw in
            let p = raw.bindMemory(to: UInt32.self)
            // 2|dr| + 4|dg| + |db| >= edge, as 0 or 1 (bytes r, g, b, a in memory order).
            @inline(__always) func differs(_ a: UInt32, _ b: UInt32) -> UInt8 {
                let a = UInt32(littleEndian: a), b = UInt32(littleEndian: b)
                let dr = Int32(a & 0xFF) &- Int32(b & 0xFF)
                let dg = Int32(a >> 8 & 0xFF) &- Int32(b >> 8 & 0xFF)
                let db = Int32(a >> 16 & 0xFF) &- Int32(b >> 16 & 0xFF)
                return 2 &* abs(dr) &+ 4 &* abs(dg) &+ abs(db) >= edge ? 1 : 0
            }
            /// Fills `out` with row y's comparisons to row y + 1.
            func vertical(_ y: Int, _ out: UnsafeMutableBufferPointer<UInt8>) {
                let row = y &* w
                for x in 0..<w { out[x] = differs(p[row &+ x], p[row &+ w &+ x]) }
            }
            if rows.lowerBound > 0 { above.withUnsafeMutableBufferPointer { vertical(rows.lowerBound - 1, $0) } }
            // A flag is written as its byte, 0 or 1.
            flags.withUnsafeMutableBufferPointer { flags in flags.withMemoryRebound(to: UInt8.self) { out in
                for y in rows {
                    let row = y &* w, o = (y &- rows.lowerBound) &* w
                    across.withUnsafeMutableBufferPointer { across in
                        // across[x + 1]: pixel x against pixel x + 1; across[0] and across[w] stay 0.
                        for x in 0..<(w - 1) { across[x &+ 1] = differs(p[row &+ x], p[row &+ x &+ 1]) }
                        below.withUnsafeMutableBufferPointer { below in
                            if y + 1 < h { vertical(y, below) } else { below.update(repeating: 0) }
                            above.withUnsafeBufferPointer { above in
                                for x in 0..<w { out[o &+ x] = across[x] | across[x &+ 1] | above[x] | below[x] }
                            }
                        }
                    }
                    swap(&above, &below)
                }
            } }
        }
        return flags
    }
}
