/// Where ordered dithering pays: the pixels of a picture that are worth dithering.
///
/// A dither pattern approximates a colour the palette lacks by mixing entries, which hides
/// bands in smooth regions. At an edge or in texture the picture already changes from
/// pixel to pixel: there the pattern adds noise of its own, which the eye and SSIMULACRA2
/// see, and which costs LZW bytes, while the nearest entry's error is masked by the
/// picture itself. A pixel is left undithered (mapped to its nearest entry) when a
/// neighbour differs from it by ``edge`` or more (more for a smaller palette, whose entries
/// lie further apart: ``edge(colors:)``), in 2|dr| + 4|dg| + |db|, and it bends
/// away from the line through its neighbours (across or down) by ``curve`` or more: a
/// smooth gradient, whose neighbours differ by a level or so per channel, or by more but
/// evenly, stays dithered.
///
/// A run of one colour along a row takes one flag: dithered if any of its pixels is. A run's
/// end pixels differ from what lies beyond them, but as a carousel slides its content along
/// the rows, one pixel of a run takes another's place on screen, and where frames are
/// cleared (a transparent background whose gaps move) each frame draws such pixels again:
/// with one flag, they keep their entries (in moving frames' rows; a wide mix's 2x2 cells,
/// ``Quantizer/wideMixSpread``, alternate by column). With the bend test alone, a gradient down an
/// item, one colour a row, had its runs' ends left undithered where their middles were
/// dithered, and pixels changed on screen while the picture stood still (a test of a
/// finger's settle found 38 such pixels in each of its last frames).
/// `bench/transparent-check.py` on the sample banners with `--spacing 16 --item-width 560`
/// counts 4,415 such pixels with the bend test and the runs, against 4,310 with neither,
/// and with the script `hold 0.3; drag -200 0.3; release; hold 0.5`, 23,886 against 27,159.
///
/// The mask also keeps which pixels differ from a neighbour by the edge, bending or not and
/// in a run or not (bit 1 of ``bits``): the GIF encoder's moving frames count those in
/// coarser histogram cells, as they did before the bend test (counting only the undithered
/// ones there put a frame of the gradients' last move 5.5 below pngquant's).
///
/// The mask is made once from the strip and cut with it, so a pixel's treatment travels
/// with the content as it moves.
struct DitherMask: Sendable {
    /// Per pixel of the picture it was made from, row by row: bit 0 set where the pixel is
    /// left undithered, bit 1 where it differs from a neighbour by the edge or more
    /// (``edge(colors:)``).
    let bits: [UInt8]
    let width: Int
    let height: Int

    /// The mask of `image` (a strip) for a palette of `colors` entries: its pixels compared
    /// at ``edge(colors:)``.
    init(_ image: RGBAImage, colors: Int = 256) {
        bits = DitherMask.bits(image, edge: DitherMask.edge(colors: colors))
        width = image.width
        height = image.height
    }

    /// One flag per pixel, row by row: whether it is left undithered.
    var flags: [Bool] { bits.map { $0 & 1 != 0 } }

    /// ``bits`` bit 1 of pixel `i`, reading the bits through `pointer`.
    @inline(__always)
    static func differs(_ pointer: UnsafePointer<UInt8>, _ i: Int) -> Bool {
        pointer[i] & 2 != 0
    }

    /// Whether the dithered pixels of columns `columns` (``bits`` bit 0 clear: smooth
    /// colour, neither edge nor texture) fill more than `limit` cells of a grid over Oklab,
    /// 16 steps each way (``OklabPlane``'s points, lightness / 64, a / 32, b / 32), looking
    /// at the pixels whose column and row are multiples of ``colorStep``, so whether a pixel
    /// counts does not hang on where the columns start. A palette mixes such
    /// pixels' colours from a few entries each, so the more cells they fill, the more every
    /// entry counts; a colour wheel fills hundreds, a photograph's sky or a banner's
    /// gradients a few dozen.
    func fillsColorCells(_ plane: OklabPlane, columns: Range<Int>, moreThan limit: Int) -> Bool {
        assert(plane.width == width && columns.lowerBound >= 0 && columns.upperBound <= width)
        var seen = [UInt64](repeating: 0, count: 4096 / 64)
        var filled = 0
        return bits.withUnsafeBufferPointer { bits in plane.bytes.withUnsafeBytes { raw in
            let points = raw.bindMemory(to: UInt32.self)
            let first = (columns.lowerBound + DitherMask.colorStep - 1) / DitherMask.colorStep * DitherMask.colorStep
            for y in stride(from: 0, to: height, by: DitherMask.colorStep) {
                for x in stride(from: first, to: columns.upperBound, by: DitherMask.colorStep) {
                    let i = y &* width &+ x
                    guard bits[i] & 1 == 0 else { continue }
                    let (l, a, b) = OklabPlane.unpack(points[i])
                    let cell = Int(l >> 6) << 8 | Int(a >> 5) << 4 | Int(b >> 5)
                    let bit: UInt64 = 1 << UInt64(cell & 63)
                    guard seen[cell >> 6] & bit == 0 else { continue }
                    seen[cell >> 6] |= bit
                    filled += 1
                    if filled > limit { return true }
                }
            }
            return false
        } }
    }

    /// Rows and columns apart of the pixels ``fillsColorCells(_:columns:moreThan:)`` looks at.
    static let colorStep = 4

    /// The undithered flags of columns `x..<x + width` for a picture `height` rows tall, row
    /// by row; rows below the mask's own are dithered. With `differing`, bit 1's flags
    /// instead: whether each pixel differs from a neighbour by the edge (false below).
    func cut(x: Int, width: Int, height: Int, differing: Bool = false) -> [Bool] {
        let shift: UInt8 = differing ? 1 : 0
        var cut = [Bool](repeating: false, count: width * height)
        cut.withUnsafeMutableBufferPointer { cut in cut.withMemoryRebound(to: UInt8.self) { out in
            bits.withUnsafeBufferPointer { bits in
                for y in 0..<min(height, self.height) {
                    // A flag is its byte, 0 or 1: bit 0, through pointers, so the loop vectorizes.
                    let from = bits.baseAddress! + (y &* self.width &+ x), to = out.baseAddress! + y &* width
                    for i in 0..<width { to[i] = from[i] &>> shift & 1 }
                }
            }
        } }
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

    /// ``edge`` for a palette of `colors` entries (2...256): 10 at 256, and as many times more
    /// as the palette is smaller, rounded down (2560 / `colors`: still 10 from 234 colours up,
    /// 20 at 128, 40 at 64, 80 at 32). Bit 1 of ``bits``, whose pixels count in a moving
    /// frame's coarser histogram cells, follows the same edge. Texture hides a nearest
    /// entry's error only where it changes by about as much as the entries lie apart, and
    /// the fewer the entries, the further apart they lie: at 32 colours, the grain of a
    /// photograph (a cup's crema, a floor) differs by 10 or more from pixel to pixel but
    /// lies between entries much further apart, and mapped to its nearest entries it turned to
    /// flat patches. Measured with `python3 bench/option-sweep.py BIN --every 8 -- OPTIONS
    /// --colors N` (bytes; SSIMULACRA2 mean against `pngquant N`'s; frames more than 5 below
    /// pngquant's, and the worst gap), the photographs with `bench/quality-bench.py`'s options,
    /// an edge of 10 against this one:
    ///
    /// | workload, N | edge 10 | scaled |
    /// |---|---|---|
    /// | photographs, 32 | 4,010,898; 42.48 (47.48); 38, −34.50 | 4,409,335; 49.36; 4, −6.45 |
    /// | photographs, 64 | 5,251,699; 60.73 (62.02); 12, −9.81 | 5,528,514; 62.73; 0, −3.94 |
    /// | sample banners, 32 | 907,274; 62.01 (62.45); 9, −12.91 | 909,594; 62.07; 10, −10.52 |
    /// | sample banners, 64 | 1,206,649; 74.70 (73.59); 4, −11.18 | 1,205,078; 74.79; 3, −9.50 |
    /// | gradients, 64 | 7,707,372; 60.44 (58.68); 5, −11.74 | 8,100,693; 61.09; 7, −11.79 |
    ///
    /// Every pixel dithered did about as well on the photographs (49.54 with 1 frame more than
    /// 5 below at 32, at 4,577,689 bytes; 63.36 with 2 at 64) but worse on the sample banners
    /// at 64 (74.43). docs/behaviour.md (*The dither mask follows the palette's size*) has the
    /// rest.
    static func edge(colors: Int) -> Int32 {
        edge * 256 / Int32(min(256, max(2, colors)))
    }

    /// How far a pixel must bend away from the straight line through its neighbours (the
    /// second difference a - 2b + c across or down, in 2|r| + 4|g| + |b|) to be left
    /// undithered when it differs from a neighbour by the edge (``edge(colors:)``). An axis on
    /// which the pixel lacks a neighbour (the picture's first and last rows and columns) does
    /// not count, as if the line went on straight. A steep smooth gradient changes by
    /// ``edge`` or more from pixel to pixel but bends hardly at all, and without dithering it bands: the colour
    /// wheel of scikit-image (`bench/quality-bench.py`'s `others` workload: 371 pixels across,
    /// scaled up to 640x360) changes by 10 or more between neighbours on 29% of its pixels,
    /// in a speckle that left its moving frames posterized (SSIMULACRA2 36.4 against
    /// pngquant's 45.3), while it bends by 10 or more on 1.2 to 1.6%. Edges bend by their
    /// step, and texture from pixel to pixel, so both stay undithered.
    ///
    /// Measured at 5a49945 with the bend test alone (`bench/quality-probe.py photos`: bytes as
    /// a multiple of ffmpeg's, SSIMULACRA2 mean, the worst sampled frame's gap to pngquant's):
    /// 0 (no test) 0.981x, 80.90, −3.2; 3 0.984x, 80.85, −3.4; 4 0.985x, 80.85, −3.5; **6
    /// 0.990x, 80.94, −4.5**; 8 0.999x, 80.91, −4.4; 10 1.008x, 80.95, −4.0; 16 1.029x,
    /// 80.96, −4.0; 32 1.063x, 80.83, −6.9. On the `others` workload, scored on every moving
    /// frame (`bench/every-move.py others`), 6 left 4 frames more than 5 below pngquant's
    /// against 11 (all four grey pictures, which ``Histogram/init(exactColorsOf:weights:space:counts:)``
    /// mends); a scratch script scoring the same pictures' moving frames found colour-wheel
    /// frames more than 5 below with 3 and 4, and none from 6 up. 6 is the least that clears
    /// them, for the fewest bytes.
    static let curve: Int32 = 6

    /// One flag per pixel of `image`, row by row: true where the pixel is left undithered,
    /// that is where it differs by `edge` or more from a neighbour to its left, right, top
    /// or bottom, and its second difference across or down is `curve` or more (0 leaves the
    /// second test out), unless it lies in a run of one colour along its row that holds a
    /// pixel that is not.
    static func undithered(_ image: RGBAImage, edge: Int32 = DitherMask.edge, curve: Int32 = DitherMask.curve) -> [Bool] {
        bits(image, edge: edge, curve: curve).map { $0 & 1 != 0 }
    }

    /// ``bits`` of `image`: bit 0 the flags of ``undithered(_:edge:curve:)``, bit 1 whether the
    /// pixel differs from a neighbour by `edge` or more.
    ///
    /// A pixel's bits depend on its own row and the rows beside it only, so the rows are
    /// done in bands, one parallel task each, and each neighbouring pair is compared once,
    /// without branches.
    ///
    /// The runs' two passes along a row compare the colours first, in a loop of their own, and
    /// carry the flag from pixel to pixel in a register, so no pixel waits to read back what the
    /// one beside it stored. Against passes that compared two pixels and read that flag back
    /// each, with the same bits, `bench/mask-time.swift` (five alternating runs on the strips
    /// `carousel strip` writes: the best of 30 passes on the sample banners', 4480x360, and of
    /// 10 on the gradients' with the benchmark's options, 10510x665) took 5.46–6.97 ms against
    /// 7.60–9.78 ms, and 26.17–33.43 ms against 31.05–38.89 ms. The mask is made before a
    /// GIF's first frame is encoded, on all cores.
    static func bits(_ image: RGBAImage, edge: Int32 = DitherMask.edge, curve: Int32 = DitherMask.curve) -> [UInt8] {
        let w = image.width, h = image.height
        guard w > 0, h > 0 else { return [] }
        let bandRows = max(32, (h + 7) / 8)
        let bands = Array(stride(from: 0, to: h, by: bandRows)).parallelMap { y in
            flagged(image, rows: y..<min(h, y + bandRows), edge: edge, curve: curve)
        }
        var bits: [UInt8] = []
        bits.reserveCapacity(w * h)
        for band in bands { bits.append(contentsOf: band) }
        return bits
    }

    /// The bits of `rows` (see ``bits(_:edge:curve:)``).
    private static func flagged(_ image: RGBAImage, rows: Range<Int>, edge: Int32, curve: Int32) -> [UInt8] {
        let w = image.width, h = image.height
        var flags = [UInt8](repeating: 0, count: w * rows.count)
        // Per column: whether the pixel differs from the one to its right, and from the ones above and below.
        var across = [UInt8](repeating: 0, count: w + 1)
        var above = [UInt8](repeating: 0, count: w), below = [UInt8](repeating: 0, count: w)
        // Per column of the row: whether the pixel bends by `curve` or more, down or across.
        var bent = [UInt8](repeating: 0, count: w)
        // Per column of the row: 1 where the pixel has the colour of the one to its right.
        var same = [UInt8](repeating: 0, count: w)
        image.pixels.withUnsafeBytes { raw in
            let p = raw.bindMemory(to: UInt32.self)
            // A pixel's channels, bytes r, g, b, a in memory order.
            @inline(__always) func channels(_ v: UInt32) -> (Int32, Int32, Int32) {
                let v = UInt32(littleEndian: v)
                return (Int32(v & 0xFF), Int32(v >> 8 & 0xFF), Int32(v >> 16 & 0xFF))
            }
            // 2|r| + 4|g| + |b| of a difference: the weights of both tests.
            @inline(__always) func weighted(_ r: Int32, _ g: Int32, _ b: Int32) -> Int32 { 2 &* abs(r) &+ 4 &* abs(g) &+ abs(b) }
            // The first difference a - b reaches `edge`, as 0 or 1.
            @inline(__always) func differs(_ a: UInt32, _ b: UInt32) -> UInt8 {
                let a = channels(a), b = channels(b)
                return weighted(a.0 &- b.0, a.1 &- b.1, a.2 &- b.2) >= edge ? 1 : 0
            }
            // The second difference a - 2b + c reaches `curve`, as 0 or 1.
            @inline(__always) func bends(_ a: UInt32, _ b: UInt32, _ c: UInt32) -> UInt8 {
                let a = channels(a), b = channels(b), c = channels(c)
                return weighted(a.0 &- 2 &* b.0 &+ c.0, a.1 &- 2 &* b.1 &+ c.1, a.2 &- 2 &* b.2 &+ c.2) >= curve ? 1 : 0
            }
            /// Fills `out` with row y's comparisons to row y + 1.
            func vertical(_ y: Int, _ out: UnsafeMutableBufferPointer<UInt8>) {
                let row = y &* w
                for x in 0..<w { out[x] = differs(p[row &+ x], p[row &+ w &+ x]) }
            }
            if rows.lowerBound > 0 { above.withUnsafeMutableBufferPointer { vertical(rows.lowerBound - 1, $0) } }
            flags.withUnsafeMutableBufferPointer { out in
                for y in rows {
                    let row = y &* w, o = (y &- rows.lowerBound) &* w
                    across.withUnsafeMutableBufferPointer { across in
                        // across[x + 1]: pixel x against pixel x + 1; across[0] and across[w] stay 0.
                        for x in 0..<(w - 1) { across[x &+ 1] = differs(p[row &+ x], p[row &+ x &+ 1]) }
                        below.withUnsafeMutableBufferPointer { below in
                            if y + 1 < h { vertical(y, below) } else { below.update(repeating: 0) }
                            above.withUnsafeBufferPointer { above in
                                bent.withUnsafeMutableBufferPointer { bent in
                                    // Down, then across. At the picture's edge an axis that lacks a
                                    // neighbour does not count, as if the line went on straight: the
                                    // first and last rows of a steep vertical gradient stay dithered.
                                    if curve <= 0 {
                                        bent.update(repeating: 1)
                                    } else if y > 0 && y + 1 < h {
                                        for x in 0..<w { bent[x] = bends(p[row &- w &+ x], p[row &+ x], p[row &+ w &+ x]) }
                                    } else {
                                        bent.update(repeating: 0)
                                    }
                                    if w > 2 && curve > 0 {
                                        for x in 1..<(w - 1) { bent[x] |= bends(p[row &+ x &- 1], p[row &+ x], p[row &+ x &+ 1]) }
                                    }
                                    // Bit 0 as it stands for the pixel alone, bit 1 whether it differs.
                                    for x in 0..<w {
                                        let differing = across[x] | across[x &+ 1] | above[x] | below[x]
                                        out[o &+ x] = differing &<< 1 | differing & bent[x]
                                    }
                                    // A run of one colour along the row takes one flag, dithered if any of
                                    // its pixels is: a run's end pixels differ from what lies beyond them,
                                    // but as the content slides along the row, its pixels take each other's
                                    // places, and must keep their entries. The and of the run gathers at its
                                    // last pixel, then spreads back; without branches. The colours are
                                    // compared first, in a loop that vectorizes, and the flag carried from
                                    // pixel to pixel stays in a register (see ``bits(_:edge:curve:)``).
                                    if w > 1 {
                                        same.withUnsafeMutableBufferPointer { same in
                                            for x in 0..<(w - 1) { same[x] = p[row &+ x] == p[row &+ x &+ 1] ? 1 : 0 }
                                            var carried = out[o] & 1
                                            for x in 1..<w {
                                                let flag = out[o &+ x] & 1 & (carried | (same[x &- 1] ^ 1))
                                                out[o &+ x] = out[o &+ x] & 2 | flag
                                                carried = flag
                                            }
                                            var x = w - 2
                                            while x >= 0 {
                                                let joined = same[x], own = out[o &+ x]
                                                let flag = joined & carried | (joined ^ 1) & own & 1
                                                out[o &+ x] = own & 2 | flag
                                                carried = flag
                                                x &-= 1
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    swap(&above, &below)
                }
            }
        }
        return flags
    }
}
