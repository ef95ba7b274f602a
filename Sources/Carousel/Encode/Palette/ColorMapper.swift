/// Finds the nearest palette entry for a colour (squared distance with the channels
/// weighted by ``ChannelWeights``, or in Oklab for ``ColorSpace/oklab``, lowest index on
/// ties), fast.
///
/// The space is cut into cells: in RGB 32x32x32 of 8 levels a side; in Oklab 64x32x32 of
/// 16 units a side (lightness spans 0...990, a and b 0...511). Oklab's colours fill less of
/// their box than RGB's fill the cube, so its cells must be smaller for lists as short: in
/// a gradients render, with RGB's cells a lookup searched 11 entries on average; in Oklab,
/// cells of 32 units searched 25 (three runs took 0.82–0.84 s), cells of 32 units of
/// lightness by 16 of a and b 17 (0.77–0.81 s), and cells of 16 units 14 (with moving
/// frames paired, as they were then; 0.76–0.82 s before). The first time a colour falls in a cell,
/// the mapper lists the entries that can be nearest to any colour of that cell:
/// those whose closest possible distance to the cell is no more than the smallest
/// farthest distance of any entry. A lookup then searches only that short list, and
/// gives exactly what a search of the whole palette would. The lists are built in two
/// levels: coarse cells of 4x4x4 fine ones from the whole palette, fine cells from their coarse
/// cell's list (an entry nearest somewhere in a fine cell is nearest somewhere in the
/// coarse cell that contains it). An entry is also dropped from a cell's list when the
/// cell lies wholly on the far side of the plane halfway between it and the entry that set
/// the bound, so that entry is nearer everywhere in the cell: the benchmark's lookups then
/// search 1.22 blocks of 8 entries on average against 1.65 on the photographs, and 1.43
/// against 1.80 on the gradients, with the same answers. The test runs in `Float`, in the
/// same branch-free pass as the bound (in `Double`, entry by entry after it, filling the
/// lists took as long as the shorter searches saved on the photographs). The render's CPU
/// time, five alternating runs of `bench/render-cpu.py`: photographs 0.578–0.596 s against
/// 0.598–0.605 s, gradients 1.155–1.188 s against 1.156–1.211 s, sample banners
/// 0.210–0.214 s against 0.197–0.212 s. Lists are kept with their entries' channels and
/// padded to a multiple of 8 with entries farther than any colour, so a lookup is one
/// branch-free loop without a remainder, which the compiler vectorizes.
///
/// A list's channels are stored in blocks of 8 entries (8 reds, 8 greens, 8 blues; now their
/// indices too, below), and a cell's place and length in one word, so a lookup touched two or
/// three cache lines where separate arrays of reds, greens and blues, starts and lengths
/// touched five or more. A
/// photograph's render looks up millions of colours (5.4 million on the benchmark's photos,
/// 13 listed entries each on average), nearly all in cells met before. With the same bytes,
/// the render's CPU time (four alternating runs of `bench/render-cpu.py`) went from
/// 0.626–0.644 to 0.596–0.605 s on the photos and 1.198–1.242 to 1.174–1.186 s on the
/// gradients.
///
/// Each block also holds its 8 entries' indices, as floats (128 bytes, aligned to two cache
/// lines), and the search's minimum carries the index itself: a list holds its entries in
/// index order, so the lowest index on ties is still the first in the list, and no array of
/// entries is read after the search, a load that waited on it. With the same bytes, `perf stat
/// -r 8` of the benchmark's renders (task-clock, two alternating rounds): the photos 502 and
/// 504 ms against 495 and 492 ms, the gradients 1004 and 992 ms against 950 and 982 ms, the
/// sample banners 173 and 173 ms against 170 and 166 ms (with the changes beside it, the
/// sample banners and the gradients came out within the noise: docs/behaviour.md, *Fewer
/// loads and branches to wait on*).
///
/// `nearest` fills its lists as it goes, so one mapper serves one thread at a time
/// (it is not `Sendable`); `PaletteSearch` gives the same answers and may be shared.
public final class ColorMapper {
    /// The palette searched.
    public let palette: [RGBA]
    /// How the channels count in the distance in RGB (Oklab's axes count alike); the GIF
    /// encoder also looks up overlay colours in RGB with them.
    public let weights: ChannelWeights
    /// Where distances are measured.
    public let space: ColorSpace
    /// The largest coordinate of a point in ``space`` on each axis: 255 in RGB.
    public let limits: (Int32, Int32, Int32)
    /// A point's fine cell on each axis is its coordinate shifted right by these: 3 in RGB
    /// (0...255), 4 in Oklab.
    private let shifts: (Int32, Int32, Int32)
    // Lookup tables in manually managed memory: the hot path reads them without
    // bounds or exclusivity checks (`@exclusivity(unchecked)` on the ones that grow: a
    // mapper serves one thread at a time, and no access overlaps another). Freed in deinit.
    /// Each fine cell's list, as one word: its first block (of 8 entries) above its number of
    /// blocks (6 bits), or all ones until the list is made.
    private let cells: UnsafeMutablePointer<UInt32>
    /// The entries' coordinates in ``space``, as floats for the search loops (below).
    private let coordinates: UnsafeMutablePointer<Float>
    /// The entries' coordinates in ``space``, as whole numbers (their channels in RGB).
    public let points: [(Int32, Int32, Int32)]
    /// The fine cells' lists, each padded to a multiple of 8, in blocks of 8 entries: 8 reds,
    /// 8 greens, 8 blues and the 8 entries' indices, as floats: 128 bytes from a 64-byte
    /// boundary, two cache lines a block.
    @exclusivity(unchecked) private var candidateBlocks: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) private var candidateCount = 0
    @exclusivity(unchecked) private var candidateCapacity = 4096
    /// One cell's list while it is built (at most 256 entries).
    private let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)

    /// A mapper over `palette` (1...256 entries) by distance with `weights` in RGB, or in
    /// Oklab (where `weights` do not count); an empty palette maps everything to black at index 0.
    public init(palette: [RGBA], weights: ChannelWeights = .rgb, space: ColorSpace = .rgb) {
        precondition(palette.count <= 256, "ColorMapper: a palette has at most 256 entries (a GIF's colour table), got \(palette.count)")
        let palette = palette.isEmpty ? [RGBA.black] : palette
        self.palette = palette
        self.weights = weights
        floatWeights = space == .oklab ? (1, 1, 1) : (Float(weights.r), Float(weights.g), Float(weights.b))
        self.space = space
        shifts = space == .oklab ? (4, 4, 4) : (3, 3, 3)
        limits = space == .oklab ? Oklab.limits : (255, 255, 255)
        // 32 (RGB) or 64 (Oklab lightness) cells by 32 by 32.
        let cells = space == .oklab ? 64 * 32 * 32 : 32 * 32 * 32
        self.cells = .allocate(capacity: cells)
        self.cells.initialize(repeating: .max, count: cells)
        let points = palette.map { space == .oklab ? Oklab.point($0) : (Int32($0.r), Int32($0.g), Int32($0.b)) }
        self.points = points
        coordinates = .allocate(capacity: palette.count * 3)
        for (e, p) in points.enumerated() {
            coordinates[e * 3] = Float(p.0)
            coordinates[e * 3 + 1] = Float(p.1)
            coordinates[e * 3 + 2] = Float(p.2)
        }
        candidateBlocks = ColorMapper.allocateBlocks(candidateCapacity)
        let padded = (palette.count + 7) / 8 * 8
        all = (padded, .allocate(capacity: padded), .allocate(capacity: padded), .allocate(capacity: padded),
               .allocate(capacity: padded))
        for e in 0..<padded {
            let real = e < palette.count
            all.entries[e] = real ? UInt8(e) : 0
            all.red[e] = real ? coordinates[e * 3] : ColorMapper.padding
            all.green[e] = real ? coordinates[e * 3 + 1] : ColorMapper.padding
            all.blue[e] = real ? coordinates[e * 3 + 2] : ColorMapper.padding
        }
    }

    /// A mapper for a palette `designed` for colours that may lie between its entries, to be
    /// mapped with `dither`: in the dither's space (``Dither/space``). A palette that holds
    /// every colour exactly is searched in RGB, where each colour finds its own entry (two
    /// colours a level apart can share an Oklab point).
    convenience init(palette: [RGBA], dither: Dither, exact: Bool) {
        self.init(palette: palette, weights: dither.weights, space: exact ? .rgb : dither.space)
    }

    deinit {
        cells.deallocate()
        coordinates.deallocate()
        UnsafeMutableRawPointer(candidateBlocks).deallocate()
        scratch.deallocate()
        all.entries.deallocate()
        all.red.deallocate()
        all.green.deallocate()
        all.blue.deallocate()
    }

    /// The nearest entry to (r, g, b).
    ///
    /// The distances are computed in `Float`, exactly: every product and sum of real
    /// entries is an integer below 2^24 (padding lanes are clamped to the ceiling below). The
    /// baseline x86-64 target (SSE2) has no packed 32-bit integer multiply, and packed
    /// float multiplies make the loop about three times shorter. Each candidate's distance
    /// (below 2^22) is then read back as an integer from the mantissa of distance + 2^23 and
    /// shifted above its entry's index (read back the same way), so the smallest value is the
    /// nearest entry, the lowest index on ties.
    @inline(__always)
    public func nearest(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt8 {
        nearest(point: point(r, g, b))
    }

    /// The point of the colour (r, g, b) in ``space``: the colour itself in RGB. Channels
    /// outside 0...255 are taken at the nearest limit.
    @inline(__always)
    public func point(_ r: Int32, _ g: Int32, _ b: Int32) -> (Int32, Int32, Int32) {
        let (r, g, b) = (min(max(r, 0), 255), min(max(g, 0), 255), min(max(b, 0), 255))
        return space == .oklab ? Oklab.point(r, g, b) : (r, g, b)
    }

    /// The nearest entry to a point of ``space`` (each coordinate 0...``limits``; one outside
    /// is taken at the nearest limit, as it indexes the cells).
    @inline(__always)
    public func nearest(point p: (Int32, Int32, Int32)) -> UInt8 {
        nearest(inRange: (min(max(p.0, 0), limits.0), min(max(p.1, 0), limits.1), min(max(p.2, 0), limits.2)))
    }

    /// ``nearest(point:)`` of a point known to lie within ``limits`` (the encoder's: from
    /// ``point(_:_:_:)``, the layer's Oklab plane, or clamped where it shifts one), without
    /// the clamp: the quantizer's hot path.
    @inline(__always)
    func nearest(inRange p: (Int32, Int32, Int32)) -> UInt8 {
        // Masking shifts: the amounts are 3 to 5, and a smart shift's checks would cost branches.
        let cell = Int((p.0 &>> shifts.0) &<< 10 | (p.1 &>> shifts.1) &<< 5 | (p.2 &>> shifts.2))
        var list = cells[cell]
        if list == .max { list = fill(cell) }
        let first = Int(list &>> 6), blocks = Int(list & 63)
        let best = ColorMapper.search(candidateBlocks + first &* 32, blocks: blocks,
                                      color: (Float(p.0), Float(p.1), Float(p.2)), weights: floatWeights)
        return UInt8(truncatingIfNeeded: best)
    }

    /// The packed (distance << 8 | entry) minimum over `blocks` blocks of 8 listed entries
    /// (each 8 reds, 8 greens, 8 blues and 8 indices). A branch-free loop, which the compiler
    /// vectorizes.
    @inline(__always)
    private static func search(_ list: UnsafePointer<Float>, blocks: Int,
                               color: (Float, Float, Float), weights w: (Float, Float, Float)) -> Int32 {
        var best = Int32.max
        for block in 0..<blocks {
            let red = list + block &* 32, green = red + 8, blue = red + 16, entry = red + 24
            for j in 0..<8 {
                let dr = red[j] - color.0, dg = green[j] - color.1, db = blue[j] - color.2
                var d = w.0 * (dr * dr) + w.1 * (dg * dg) + w.2 * (db * db)
                d = d < ColorMapper.ceiling ? d : ColorMapper.ceiling
                let distance = Int32(bitPattern: (d + 8_388_608).bitPattern) & 0x7F_FFFF
                let packed = distance &<< 8 | Int32(bitPattern: (entry[j] + 8_388_608).bitPattern) & 0xFF
                best = packed < best ? packed : best
            }
        }
        return best
    }

    /// Above every real distance (at most 255² times the weights' sum in RGB, 3 x 1023² in
    /// Oklab: below 2^22), below 2^23.
    private static let ceiling: Float = 4_194_303

    /// How the axes count, as floats, for ``search(_:blocks:color:weights:)``: the
    /// weights in RGB, all alike in Oklab.
    private let floatWeights: (Float, Float, Float)

    /// The whole palette as a list padded to a multiple of 8, the candidates of a coarse cell before it is narrowed.
    private let all: (count: Int, entries: UnsafeMutablePointer<UInt8>, red: UnsafeMutablePointer<Float>,
                      green: UnsafeMutablePointer<Float>, blue: UnsafeMutablePointer<Float>)
    @exclusivity(unchecked) private var coarseStart = [Int32](repeating: -1, count: 16 * 8 * 8)
    @exclusivity(unchecked) private var coarseCount = [Int32](repeating: 0, count: 16 * 8 * 8)
    /// The coarse cells' lists, each padded to a multiple of 8: entries and their channels.
    @exclusivity(unchecked) private var coarseEntries: [UInt8] = []
    @exclusivity(unchecked) private var coarseRed: [Float] = []
    @exclusivity(unchecked) private var coarseGreen: [Float] = []
    @exclusivity(unchecked) private var coarseBlue: [Float] = []

    /// A channel value for padding: farther from every colour than any entry, so a padded
    /// lane never sets the threshold and is never selected (and no distance overflows).
    private static let padding: Float = 3000

    /// Writes to `out` the entries among the `count` (a multiple of 8) given by `entries` and
    /// their channels that can be nearest somewhere in the box with sides `size` at `low`, in
    /// their order. Returns how many.
    private func select(in low: (Float, Float, Float), size: (Float, Float, Float), count: Int, entries: UnsafePointer<UInt8>,
                        red: UnsafePointer<Float>, green: UnsafePointer<Float>, blue: UnsafePointer<Float>,
                        into out: UnsafeMutablePointer<UInt8>) -> Int {
        guard count > 0 else { return 0 }
        let high = (low.0 + size.0 - 1, low.1 + size.1 - 1, low.2 + size.2 - 1)
        let (wr, wg, wb) = floatWeights
        @inline(__always) func far(_ v: Float, _ low: Float, _ high: Float) -> Float {
            let a = v - low, b = high - v
            let d = a > b ? a : b
            return d * d
        }
        @inline(__always) func near(_ v: Float, _ low: Float, _ high: Float) -> Float {
            let a = low - v, b = v - high
            var d = a > b ? a : b
            d = d > 0 ? d : 0
            return d * d
        }
        // The smallest farthest distance of any entry from the box bounds every nearest distance
        // in it. Distances are non-negative floats, which order as their bit patterns do; the
        // minimum is taken over those, as integers, so the loop vectorizes. Real entries'
        // distances are exact integers; padding lanes' are inexact but far above any real one.
        var threshold = Int32.max
        for k in 0..<count {
            let d = wr * far(red[k], low.0, high.0) + wg * far(green[k], low.1, high.1) + wb * far(blue[k], low.2, high.2)
            let bits = Int32(bitPattern: d.bitPattern)
            threshold = bits < threshold ? bits : threshold
        }
        // The entry whose farthest distance is that smallest one, f, is nearer than an entry e
        // everywhere in the box when the whole box lies on f's side of the plane halfway
        // between them: when 2 c·(e - f) < |e|² - |f|² (weighted) at the box's corner where the
        // left side is largest. Such an entry is never nearest there, and is dropped. Every
        // term is a whole number below 2^24 (coordinates to 1023 in Oklab with weights 1, to
        // 255 in RGB with weights to 16), so `Float` holds each exactly; a tie anywhere keeps
        // the entry.
        var f = 0
        while f < count {
            let d = wr * far(red[f], low.0, high.0) + wg * far(green[f], low.1, high.1) + wb * far(blue[f], low.2, high.2)
            if Int32(bitPattern: d.bitPattern) == threshold { break }
            f += 1
        }
        let fr = red[f], fg = green[f], fb = blue[f]
        let squared = wr * fr * fr + wg * fg * fg + wb * fb * fb
        // Every entry is written and the count advances past those kept, by arithmetic on the
        // distances' bit patterns (non-negative floats order as they do) and a select: no
        // branch to mispredict (`out` has room for `count`). Padding lanes are far beyond the
        // threshold whatever the plane test says.
        var n = 0
        for k in 0..<count {
            let d = wr * near(red[k], low.0, high.0) + wg * near(green[k], low.1, high.1) + wb * near(blue[k], low.2, high.2)
            let ar = 2 * wr * (red[k] - fr), ag = 2 * wg * (green[k] - fg), ab = 2 * wb * (blue[k] - fb)
            let left = max(ar * low.0, ar * high.0) + max(ag * low.1, ag * high.1) + max(ab * low.2, ab * high.2)
            let right = wr * red[k] * red[k] + wg * green[k] * green[k] + wb * blue[k] * blue[k] - squared
            out[n] = entries[k]
            let near = 1 &- Int(UInt32(bitPattern: threshold &- Int32(bitPattern: d.bitPattern)) >> 31)
            n &+= left < right ? 0 : near
        }
        return n
    }

    /// Room for `count` listed entries (a multiple of 8), in blocks of 32 floats aligned to 64 bytes.
    private static func allocateBlocks(_ count: Int) -> UnsafeMutablePointer<Float> {
        UnsafeMutableRawPointer.allocate(byteCount: count * 16, alignment: 64).bindMemory(to: Float.self, capacity: count * 4)
    }

    /// Lists the candidates of a fine cell, and of its coarse cell first if needed; returns the
    /// cell's word in ``cells``.
    private func fill(_ cell: Int) -> UInt32 {
        let r = Int32(cell >> 10), g = Int32((cell >> 5) & 31), b = Int32(cell & 31)
        let coarse = Int((r &>> 2) &<< 6 | (g &>> 2) &<< 3 | (b &>> 2))
        let (s0, s1, s2) = shifts
        if coarseStart[coarse] < 0 {
            let n = select(in: (Float((r >> 2) << (s0 + 2)), Float((g >> 2) << (s1 + 2)), Float((b >> 2) << (s2 + 2))),
                           size: (Float(4 << s0), Float(4 << s1), Float(4 << s2)), count: all.count,
                           entries: all.entries, red: all.red, green: all.green, blue: all.blue, into: scratch)
            coarseStart[coarse] = Int32(coarseEntries.count)
            coarseCount[coarse] = Int32((n + 7) / 8 * 8)
            for i in 0..<((n + 7) / 8 * 8) {
                let e = i < n ? Int(scratch[i]) : -1
                coarseEntries.append(e < 0 ? 0 : UInt8(e))
                coarseRed.append(e < 0 ? ColorMapper.padding : coordinates[e * 3])
                coarseGreen.append(e < 0 ? ColorMapper.padding : coordinates[e * 3 + 1])
                coarseBlue.append(e < 0 ? ColorMapper.padding : coordinates[e * 3 + 2])
            }
        }
        let start = Int(coarseStart[coarse])
        let count = coarseEntries.withUnsafeBufferPointer { e in
            coarseRed.withUnsafeBufferPointer { red in
                coarseGreen.withUnsafeBufferPointer { green in
                    coarseBlue.withUnsafeBufferPointer { blue in
                        select(in: (Float(r << s0), Float(g << s1), Float(b << s2)), size: (Float(1 << s0), Float(1 << s1), Float(1 << s2)),
                               count: Int(coarseCount[coarse]),
                               entries: e.baseAddress! + start, red: red.baseAddress! + start,
                               green: green.baseAddress! + start, blue: blue.baseAddress! + start, into: scratch)
                    }
                }
            }
        }
        let padded = (count + 7) / 8 * 8
        if candidateCount + padded > candidateCapacity {
            let capacity = max(candidateCapacity * 2, candidateCount + padded)
            let blocks = ColorMapper.allocateBlocks(capacity)
            blocks.moveInitialize(from: candidateBlocks, count: 4 * candidateCount)
            UnsafeMutableRawPointer(candidateBlocks).deallocate()
            candidateBlocks = blocks
            candidateCapacity = capacity
        }
        for i in 0..<padded {
            let at = candidateCount + i
            if i < count {
                let e = Int(scratch[i])
                for c in 0..<3 { candidateBlocks[at / 8 * 32 + c * 8 + at % 8] = coordinates[e * 3 + c] }
                candidateBlocks[at / 8 * 32 + 24 + at % 8] = Float(e)
            } else {
                for c in 0..<3 { candidateBlocks[at / 8 * 32 + c * 8 + at % 8] = ColorMapper.padding }
                candidateBlocks[at / 8 * 32 + 24 + at % 8] = 0
            }
        }
        let list = UInt32(candidateCount / 8) << 6 | UInt32(padded / 8)
        cells[cell] = list
        candidateCount += padded
        return list
    }
}

/// Where a ``ColorMapper`` measures the distance between colours.
public enum ColorSpace: Sendable {
    /// sRGB channels, weighted by ``ChannelWeights``.
    case rgb
    /// Oklab (Björn Ottosson's perceptual colour space), as whole-number points: lightness
    /// 0...990, a and b moved into 0...511. Ordered dithering compares colours here.
    case oklab
}
