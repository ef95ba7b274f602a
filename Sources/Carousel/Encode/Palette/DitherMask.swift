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

    /// Running counts of the flagged pixels by column: entry x is the number in the columns
    /// before x (`width` + 1 entries).
    func columnCounts() -> [Int] {
        var counts = [Int](repeating: 0, count: width + 1)
        flags.withUnsafeBufferPointer { flags in
            counts.withUnsafeMutableBufferPointer { counts in
                for y in 0..<height {
                    let row = y * width
                    for x in 0..<width where flags[row + x] { counts[x + 1] += 1 }
                }
                for x in 0..<width { counts[x + 1] += counts[x] }
            }
        }
        return counts
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

    /// One flag per pixel of `image`, row by row: true where the pixel is left undithered.
    static func undithered(_ image: RGBAImage, edge: Int32 = DitherMask.edge) -> [Bool] {
        let w = image.width, h = image.height
        var plain = [Bool](repeating: false, count: w * h)
        image.pixels.withUnsafeBufferPointer { p in
            plain.withUnsafeMutableBufferPointer { out in
                @inline(__always) func difference(_ a: Int, _ b: Int) -> Int32 {
                    let o = a &* 4, q = b &* 4
                    return 2 &* abs(Int32(p[o]) &- Int32(p[q])) &+ 4 &* abs(Int32(p[o &+ 1]) &- Int32(p[q &+ 1]))
                        &+ abs(Int32(p[o &+ 2]) &- Int32(p[q &+ 2]))
                }
                // Each pair of neighbours once: both pixels are marked when they differ by edge or more.
                for y in 0..<h {
                    for x in 0..<w {
                        let i = y &* w &+ x
                        if x + 1 < w && difference(i, i &+ 1) >= edge {
                            out[i] = true
                            out[i &+ 1] = true
                        }
                        if y + 1 < h && difference(i, i &+ w) >= edge {
                            out[i] = true
                            out[i &+ w] = true
                        }
                    }
                }
            }
        }
        return plain
    }
}
