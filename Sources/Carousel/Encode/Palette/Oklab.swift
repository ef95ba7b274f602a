/// Oklab (Björn Ottosson's perceptual colour space), as whole-number points for palette
/// searches: lightness and the two colour axes scaled by ``scale`` and moved up by
/// ``offsets``, so every sRGB colour lands in 0...990 for lightness and 0...511 for a and b
/// (``limits``).
///
/// Equal distances in Oklab look about equally different, where in sRGB a step among dark
/// colours or in blue counts as much as one in bright green. Comparing colours this way
/// lets a palette's entries cover a gradient where it shows. The conversion runs in `Float`
/// from a table of the 256 linear values, with a cube root by Newton's method, so it costs
/// a few nanoseconds and its result depends on IEEE arithmetic alone.
enum Oklab {
    /// Lightness 0...1 becomes 0...990; a (-0.234...0.277 over sRGB) and b (-0.312...0.199)
    /// become about 5...510 and 3...508.
    static let scale: Float = 990
    /// Added to the scaled axes.
    static let offsets: (Int32, Int32, Int32) = (0, 236, 311)
    /// The largest coordinate on each axis.
    static let limits: (Int32, Int32, Int32) = (1023, 511, 511)

    /// The linear light of each 8-bit sRGB level, as the bits of the `Float` nearest to
    /// ((v / 255 + 0.055) / 1.055)^2.4 (v / 255 / 12.92 up to 0.04045), worked out to 60
    /// digits: written out rather than computed with the platform's `pow`, so a colour's
    /// point is the same on every platform.
    nonisolated(unsafe) private static let linear: UnsafeMutablePointer<Float> = {
        let bits: [UInt32] = [
        0x00000000, 0x399F22B4, 0x3A1F22B4, 0x3A6EB40E, 0x3A9F22B4, 0x3AC6EB61, 0x3AEEB40E, 0x3B0B3E5D,
        0x3B1F22B4, 0x3B33070A, 0x3B46EB61, 0x3B5B518E, 0x3B70F18F, 0x3B83E1C6, 0x3B8FE616, 0x3B9C87FD,
        0x3BA9C9B6, 0x3BB7AD6F, 0x3BC6354A, 0x3BD56360, 0x3BE539C1, 0x3BF5BA71, 0x3C0373B6, 0x3C0C6153,
        0x3C15A705, 0x3C1F45BE, 0x3C293E6B, 0x3C3391F7, 0x3C3E4149, 0x3C494D44, 0x3C54B6C9, 0x3C607EB4,
        0x3C6CA5DF, 0x3C792D22, 0x3C830AA9, 0x3C89AF9F, 0x3C9085DC, 0x3C978DC6, 0x3C9EC7C2, 0x3CA63433,
        0x3CADD37D, 0x3CB5A602, 0x3CBDAC21, 0x3CC5E63A, 0x3CCE54AC, 0x3CD6F7D5, 0x3CDFD010, 0x3CE8DDBA,
        0x3CF2212D, 0x3CFB9AC3, 0x3D02A56A, 0x3D0798DD, 0x3D0CA7E6, 0x3D11D2AF, 0x3D171964, 0x3D1C7C30,
        0x3D21FB3C, 0x3D2796B2, 0x3D2D4EBB, 0x3D332381, 0x3D39152B, 0x3D3F23E4, 0x3D454FD2, 0x3D4B991D,
        0x3D51FFEC, 0x3D588468, 0x3D5F26B6, 0x3D65E6FD, 0x3D6CC563, 0x3D73C20E, 0x3D7ADD24, 0x3D810B65,
        0x3D84B793, 0x3D88732E, 0x3D8C3E48, 0x3D9018F4, 0x3D940344, 0x3D97FD49, 0x3D9C0715, 0x3DA020BA,
        0x3DA44A4A, 0x3DA883D6, 0x3DACCD6F, 0x3DB12727, 0x3DB5910F, 0x3DBA0B38, 0x3DBE95B3, 0x3DC33090,
        0x3DC7DBE0, 0x3DCC97B4, 0x3DD1641D, 0x3DD6412B, 0x3DDB2EEE, 0x3DE02D76, 0x3DE53CD4, 0x3DEA5D18,
        0x3DEF8E51, 0x3DF4D090, 0x3DFA23E5, 0x3DFF885E, 0x3E027F06, 0x3E05427F, 0x3E080EA2, 0x3E0AE377,
        0x3E0DC104, 0x3E10A753, 0x3E13966A, 0x3E168E51, 0x3E198F0F, 0x3E1C98AC, 0x3E1FAB30, 0x3E22C6A1,
        0x3E25EB07, 0x3E29186A, 0x3E2C4ED0, 0x3E2F8E42, 0x3E32D6C5, 0x3E362862, 0x3E39831F, 0x3E3CE703,
        0x3E405417, 0x3E43CA60, 0x3E4749E6, 0x3E4AD2AF, 0x3E4E64C3, 0x3E520029, 0x3E55A4E7, 0x3E595305,
        0x3E5D0A89, 0x3E60CB7A, 0x3E6495DF, 0x3E6869BE, 0x3E6C471F, 0x3E702E07, 0x3E741E7E, 0x3E78188B,
        0x3E7C1C33, 0x3E8014BF, 0x3E822039, 0x3E84308B, 0x3E8645B8, 0x3E885FC3, 0x3E8A7EB0, 0x3E8CA281,
        0x3E8ECB3B, 0x3E90F8DF, 0x3E932B72, 0x3E9562F6, 0x3E979F6F, 0x3E99E0E0, 0x3E9C274C, 0x3E9E72B6,
        0x3EA0C321, 0x3EA31890, 0x3EA57307, 0x3EA7D288, 0x3EAA3716, 0x3EACA0B6, 0x3EAF0F68, 0x3EB18332,
        0x3EB3FC15, 0x3EB67A14, 0x3EB8FD34, 0x3EBB8576, 0x3EBE12DE, 0x3EC0A56E, 0x3EC33D2A, 0x3EC5DA14,
        0x3EC87C30, 0x3ECB2380, 0x3ECDD008, 0x3ED081CA, 0x3ED338C9, 0x3ED5F508, 0x3ED8B68A, 0x3EDB7D52,
        0x3EDE4963, 0x3EE11ABF, 0x3EE3F169, 0x3EE6CD65, 0x3EE9AEB5, 0x3EEC955B, 0x3EEF815C, 0x3EF272B8,
        0x3EF56974, 0x3EF86593, 0x3EFB6716, 0x3EFE6E00, 0x3F00BD2B, 0x3F02460C, 0x3F03D1A5, 0x3F055FF7,
        0x3F06F104, 0x3F0884CD, 0x3F0A1B54, 0x3F0BB499, 0x3F0D509F, 0x3F0EEF65, 0x3F1090EF, 0x3F12353D,
        0x3F13DC50, 0x3F15862A, 0x3F1732CC, 0x3F18E237, 0x3F1A946E, 0x3F1C4970, 0x3F1E0140, 0x3F1FBBDE,
        0x3F21794D, 0x3F23398C, 0x3F24FC9F, 0x3F26C285, 0x3F288B41, 0x3F2A56D2, 0x3F2C253C, 0x3F2DF67F,
        0x3F2FCA9C, 0x3F31A194, 0x3F337B6A, 0x3F35581D, 0x3F3737B0, 0x3F391A24, 0x3F3AFF7A, 0x3F3CE7B2,
        0x3F3ED2CF, 0x3F40C0D2, 0x3F42B1BC, 0x3F44A58E, 0x3F469C49, 0x3F4895EF, 0x3F4A9280, 0x3F4C91FF,
        0x3F4E946C, 0x3F5099C9, 0x3F52A216, 0x3F54AD56, 0x3F56BB88, 0x3F58CCAF, 0x3F5AE0CC, 0x3F5CF7DF,
        0x3F5F11EA, 0x3F612EEF, 0x3F634EEE, 0x3F6571E9, 0x3F6797E0, 0x3F69C0D5, 0x3F6BECCA, 0x3F6E1BBF,
        0x3F704DB5, 0x3F7282AE, 0x3F74BAAB, 0x3F76F5AE, 0x3F7933B6, 0x3F7B74C6, 0x3F7DB8DE, 0x3F800000,
        ]
        let table = UnsafeMutablePointer<Float>.allocate(capacity: 256)
        for (v, b) in bits.enumerated() { table[v] = Float(bitPattern: b) }
        return table
    }()

    /// The linear light of the 8-bit sRGB level `v`.
    static func linearLight(_ v: Int) -> Float { linear[v] }

    /// Linear sRGB to the cone responses: `cones.l` gives l from (r, g, b), and so on.
    private static let cones: (l: (Float, Float, Float), m: (Float, Float, Float), s: (Float, Float, Float)) = (
        (0.412_221_47, 0.536_332_54, 0.051_445_993),
        (0.211_903_5, 0.680_699_5, 0.107_396_96),
        (0.088_302_46, 0.281_718_84, 0.629_978_7))
    /// The cube roots of the cone responses to lightness and the two colour axes: `axes.a`
    /// gives a from (l, m, s), and so on.
    private static let axes: (lightness: (Float, Float, Float), a: (Float, Float, Float), b: (Float, Float, Float)) = (
        (0.210_454_26, 0.793_617_8, -0.004_072_047),
        (1.977_998_5, -2.428_592_2, 0.450_593_7),
        (0.025_904_037, 0.782_771_77, -0.808_675_77))

    /// The point of the sRGB colour (r, g, b), each 0...255.
    ///
    /// The three cone responses (l, m, s) go through the matrices and cube roots side by side,
    /// as the lanes of one vector. Not inlined: the mapping loops read points from an
    /// ``OklabPlane`` and convert only where they have none, and the code stays out of them.
    @inline(never)
    static func point(_ r: Int32, _ g: Int32, _ b: Int32) -> (Int32, Int32, Int32) {
        let table = linear
        let lr = table[Int(r)], lg = table[Int(g)], lb = table[Int(b)]
        let c = cones, x = axes
        let lms = SIMD4<Float>(c.l.0, c.m.0, c.s.0, 0) * lr + SIMD4<Float>(c.l.1, c.m.1, c.s.1, 0) * lg
            + SIMD4<Float>(c.l.2, c.m.2, c.s.2, 0) * lb
        let root = cubeRoots(lms)
        let lab = SIMD4<Float>(x.lightness.0, x.a.0, x.b.0, 0) * root[0] + SIMD4<Float>(x.lightness.1, x.a.1, x.b.1, 0) * root[1]
            + SIMD4<Float>(x.lightness.2, x.a.2, x.b.2, 0) * root[2]
        // Rounded half up, by truncating values made positive.
        let moved = lab * scale + SIMD4<Float>(0.5, Float(offsets.1) + 0.5, Float(offsets.2) + 0.5, 0)
        return (min(limits.0, max(0, Int32(moved[0]))), min(limits.1, max(0, Int32(moved[1]))),
                min(limits.2, max(0, Int32(moved[2]))))
    }

    /// The points of eight colours at once, packed as ``OklabPlane`` packs them: lane k is
    /// the point of (r[k], g[k], b[k]), each 0...255. Every lane takes the steps ``point(_:_:_:)``
    /// takes, with the same constants and in the same order, so its result is the same to the bit.
    static func packedPoints(_ r: SIMD8<UInt32>, _ g: SIMD8<UInt32>, _ b: SIMD8<UInt32>) -> SIMD8<UInt32> {
        let table = linear
        var lr = SIMD8<Float>(), lg = SIMD8<Float>(), lb = SIMD8<Float>()
        for k in 0..<8 {
            lr[k] = table[Int(r[k])]
            lg[k] = table[Int(g[k])]
            lb[k] = table[Int(b[k])]
        }
        let c = cones, x = axes
        let l = cubeRoots(c.l.0 * lr + c.l.1 * lg + c.l.2 * lb)
        let m = cubeRoots(c.m.0 * lr + c.m.1 * lg + c.m.2 * lb)
        let s = cubeRoots(c.s.0 * lr + c.s.1 * lg + c.s.2 * lb)
        let lightness = (x.lightness.0 * l + x.lightness.1 * m + x.lightness.2 * s) * scale + 0.5
        let a = (x.a.0 * l + x.a.1 * m + x.a.2 * s) * scale + (Float(offsets.1) + 0.5)
        let bAxis = (x.b.0 * l + x.b.1 * m + x.b.2 * s) * scale + (Float(offsets.2) + 0.5)
        @inline(__always) func clamped(_ v: SIMD8<Float>, _ limit: Int32) -> SIMD8<UInt32> {
            // Truncated lane by lane: the vector conversion with a rounding rule is generic code.
            var whole = SIMD8<Int32>()
            for k in 0..<8 { whole[k] = Int32(v[k]) }
            return SIMD8<UInt32>(truncatingIfNeeded: pointwiseMin(pointwiseMax(whole, .zero), SIMD8(repeating: limit)))
        }
        return clamped(lightness, limits.0) &<< 18 | clamped(a, limits.1) &<< 9 | clamped(bAxis, limits.2)
    }

    /// Added to a third of a float's bits, the first guess at its cube root.
    private static let cubeRootGuess: UInt32 = 0x2A51_4067

    /// The cube roots of eight lanes, each worked out as the four-lane `cubeRoots` does.
    @inline(__always)
    static func cubeRoots(_ x: SIMD8<Float>) -> SIMD8<Float> {
        let bits = unsafeBitCast(x, to: SIMD8<UInt32>.self) / 3 &+ cubeRootGuess
        var y = unsafeBitCast(bits, to: SIMD8<Float>.self)
        y = (2 * y + x / (y * y)) * (1 / 3)
        y = (2 * y + x / (y * y)) * (1 / 3)
        return y
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
        @inline(__always) func guess(_ v: Float) -> Float { Float(bitPattern: v.bitPattern / 3 &+ cubeRootGuess) }
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
                // Colours the table lacks wait, eight at a time, to be converted at once.
                // Lanes past the waiting count keep colours converted before (or black), so every
                // lane converts a real colour.
                let waiting = UnsafeMutablePointer<UInt32>.allocate(capacity: 16)
                waiting.initialize(repeating: 0, count: 16)
                defer { waiting.deallocate() }
                let places = waiting + 8
                var count = 0
                func convert() {
                    let colors = UnsafeRawPointer(waiting).loadUnaligned(as: SIMD8<UInt32>.self)
                    let points = Oklab.packedPoints(colors & 0xFF, colors &>> 8 & 0xFF, colors &>> 16 & 0xFF)
                    for k in 0..<8 where k < count {
                        let color = colors[k]
                        recent[Int((color ^ color >> 12) & 0xFFF)] = UInt64(color) << 28 | UInt64(points[k])
                        out[Int(places[k])] = points[k]
                    }
                    count = 0
                }
                for i in (rows.lowerBound * image.width)..<(rows.upperBound * image.width) {
                    // Bytes r, g, b, a in memory order.
                    let color = UInt32(littleEndian: pixels[i]) & 0xFF_FFFF
                    let entry = recent[Int((color ^ color >> 12) & 0xFFF)]
                    if entry != .max && UInt32(truncatingIfNeeded: entry >> 28) == color {
                        out[i] = UInt32(truncatingIfNeeded: entry & 0xFFF_FFFF)
                    } else {
                        waiting[count] = color
                        places[count] = UInt32(truncatingIfNeeded: i)
                        count += 1
                        if count == 8 { convert() }
                    }
                }
                if count > 0 { convert() }
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
