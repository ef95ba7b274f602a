import Foundation

/// Oklab (Björn Ottosson's perceptual colour space), as whole-number points for palette
/// searches: lightness and the two colour axes scaled by ``scale`` and moved up by
/// ``offsets``, so every sRGB colour lands in 0...990 for lightness and 0...511 for a and b
/// (``limits``).
///
/// Equal distances in Oklab look about equally different, where in sRGB a step among dark
/// colours or in blue counts as much as one in bright green. Comparing colours this way
/// lets a palette's entries cover a gradient where it shows. The conversion runs in `Float`
/// from a table of the 256 linear values, with a cube root by Newton's method, so it costs
/// a few nanoseconds and its result depends on IEEE arithmetic alone (the table is made with
/// `pow` once).
enum Oklab {
    /// Lightness 0...1 becomes 0...990; a (-0.234...0.277 over sRGB) and b (-0.312...0.199)
    /// become about 5...510 and 3...508.
    static let scale: Float = 990
    /// Added to the scaled axes.
    static let offsets: (Int32, Int32, Int32) = (0, 236, 311)
    /// The largest coordinate on each axis.
    static let limits: (Int32, Int32, Int32) = (1023, 511, 511)

    /// The linear light of each 8-bit sRGB level.
    // Written once, when first used, and only read after: no thread sees it change.
    nonisolated(unsafe) private static let linear: UnsafeMutablePointer<Float> = {
        let table = UnsafeMutablePointer<Float>.allocate(capacity: 256)
        for v in 0..<256 {
            let c = Double(v) / 255
            table[v] = Float(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4))
        }
        return table
    }()

    /// The point of the sRGB colour (r, g, b), each 0...255.
    ///
    /// The three cone responses (l, m, s) go through the matrices and cube roots side by side,
    /// as the lanes of one vector. Not inlined: the mapping loops read points from an
    /// ``OklabPlane`` and convert only where they have none, and the code stays out of them.
    @inline(never)
    static func point(_ r: Int32, _ g: Int32, _ b: Int32) -> (Int32, Int32, Int32) {
        let table = linear
        let lr = table[Int(r)], lg = table[Int(g)], lb = table[Int(b)]
        let lms = SIMD4<Float>(0.412_221_47, 0.211_903_5, 0.088_302_46, 0) * lr
            + SIMD4<Float>(0.536_332_54, 0.680_699_5, 0.281_718_84, 0) * lg
            + SIMD4<Float>(0.051_445_993, 0.107_396_96, 0.629_978_7, 0) * lb
        let root = cubeRoots(lms)
        let lab = SIMD4<Float>(0.210_454_26, 1.977_998_5, 0.025_904_037, 0) * root[0]
            + SIMD4<Float>(0.793_617_8, -2.428_592_2, 0.782_771_77, 0) * root[1]
            + SIMD4<Float>(-0.004_072_047, 0.450_593_7, -0.808_675_77, 0) * root[2]
        // Rounded half up, by truncating values made positive.
        let moved = lab * scale + SIMD4<Float>(0.5, Float(offsets.1) + 0.5, Float(offsets.2) + 0.5, 0)
        return (min(limits.0, max(0, Int32(moved[0]))), min(limits.1, max(0, Int32(moved[1]))),
                min(limits.2, max(0, Int32(moved[2]))))
    }

    /// The point of `color`.
    static func point(_ color: RGBA) -> (Int32, Int32, Int32) {
        point(Int32(color.r), Int32(color.g), Int32(color.b))
    }

    /// The cube roots of `x`'s lanes (each 0...1): a first guess from each float's bits (a third
    /// of its exponent, within about 5%), then two Newton steps, within about 1e-5: a hundredth
    /// of a unit of the scaled coordinates. A lane of 0 comes out below 1e-13.
    @inline(__always)
    static func cubeRoots(_ x: SIMD4<Float>) -> SIMD4<Float> {
        @inline(__always) func guess(_ v: Float) -> Float { Float(bitPattern: v.bitPattern / 3 &+ 0x2A51_4067) }
        var y = SIMD4<Float>(guess(x[0]), guess(x[1]), guess(x[2]), guess(x[3]))
        y = (2 * y + x / (y * y)) * (1 / 3)
        y = (2 * y + x / (y * y)) * (1 / 3)
        return y
    }
}

/// The ``Oklab`` point of every pixel of a picture (the padded strip), made once so that the
/// frames showing a pixel read its point rather than each working it out: a photograph's
/// texture has nearly as many colours as pixels, and each moving frame shows most of them
/// again. A point is packed in 28 bits: lightness above a above b.
struct OklabPlane: Sendable {
    /// The picture's width: a pixel's point is at y x `width` + x.
    let width: Int
    /// The packed points, four bytes each in the machine's order.
    let bytes: [UInt8]

    /// The points of `image`'s pixels, in bands of rows on all cores.
    init(_ image: RGBAImage) {
        width = image.width
        bytes = [UInt8].parallelRows(image.height, rowBytes: image.width * 4) { rows, start in
            image.pixels.withUnsafeBytes { raw in
                let pixels = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
                let out = start.assumingMemoryBound(to: UInt32.self)
                // The points of colours met lately, by colour in a direct-mapped table: a smooth
                // picture repeats each colour over a few pixels, and a flat one over many. An
                // entry holds the colour (24 bits) above its point (28 bits); all ones is none.
                let recent = UnsafeMutablePointer<UInt64>.allocate(capacity: 1 << 12)
                recent.initialize(repeating: .max, count: 1 << 12)
                defer { recent.deallocate() }
                for i in (rows.lowerBound * image.width)..<(rows.upperBound * image.width) {
                    // Bytes r, g, b, a in memory order.
                    let color = UInt32(littleEndian: pixels[i]) & 0xFF_FFFF
                    let slot = Int((color ^ color >> 12) & 0xFFF)
                    var known = recent[slot]
                    if known == .max || UInt32(truncatingIfNeeded: known >> 28) != color {
                        let point = Oklab.point(Int32(color & 0xFF), Int32(color >> 8 & 0xFF), Int32(color >> 16))
                        known = UInt64(color) << 28 | UInt64(OklabPlane.pack(point))
                        recent[slot] = known
                    }
                    out[i] = UInt32(truncatingIfNeeded: known & 0xFFF_FFFF)
                }
            }
        }
    }

    @inline(__always)
    static func pack(_ p: (Int32, Int32, Int32)) -> UInt32 {
        UInt32(truncatingIfNeeded: p.0) << 18 | UInt32(truncatingIfNeeded: p.1) << 9 | UInt32(truncatingIfNeeded: p.2)
    }

    @inline(__always)
    static func unpack(_ v: UInt32) -> (Int32, Int32, Int32) {
        (Int32(truncatingIfNeeded: v >> 18), Int32(truncatingIfNeeded: v >> 9 & 0x1FF), Int32(truncatingIfNeeded: v & 0x1FF))
    }
}
