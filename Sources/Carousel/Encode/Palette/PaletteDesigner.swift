#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Designs a palette for a set of pixels: exact when they have few enough colours,
/// otherwise variance-driven median cut refined by k-means, with some colours reserved.
/// Colours are compared in RGB with ``weights``, or in Oklab (``space``): median cut
/// splits and k-means groups the colours by their Oklab points, and each entry is its
/// group's mean colour in RGB.
///
/// Works on a 6-bit-per-channel histogram (with a bin per grey level) that keeps each
/// cell's mean colour, so the cost depends on the number of distinct cells rather than
/// pixels; where the pixels fill fewer bins than the palette has entries to design, and
/// for a picture of few colours most of whose pixels lie in as many colours as the palette
/// designs where the encoder asks (`exactWhereConcentrated`: a rest, a move's last frames),
/// on their exact colours (`Histogram(exactColorsOf:)`).
public struct PaletteDesigner: Sendable {
    /// How many entries the palette may have in all (reserved ones included).
    public let maxColors: Int
    /// k-means passes after median cut.
    public let refinements: Int
    /// How the channels count in the distance between colours in RGB.
    public let weights: ChannelWeights
    /// Where colours are compared: the GIF encoder designs in the space its dithering maps
    /// in (``Dither/space``).
    public let space: ColorSpace

    /// k-means passes by default: on the photo benchmark a third pass gained 0.06 dB for 6% more time.
    public static let defaultRefinements = 2

    /// How many of a palette of `maxColors` entries colours kept from a neighbouring picture
    /// may take (three quarters), so a quarter is left for the pixels that change: a picture
    /// quantized beside pictures already quantized keeps to it (``Quantizer``). The GIF
    /// encoder's moving frames have limits of their own: `SceneEncoder.settlingColors` (half)
    /// where pixels settle into a rest, `SceneEncoder.heldColors` (five eighths) where they
    /// carry a hold on a transparent background.
    static func reservable(_ maxColors: Int) -> Int { maxColors * 3 / 4 }

    /// Colours the palette leaves far from every entry get entries of their own: after the
    /// refinements, while a histogram bin lies more than this squared distance in Oklab points
    /// (``Oklab``: lightness 0...990; 48 points, about 0.05 in Oklab's units) from every entry
    /// and every reserved colour, the least used entry moves onto the farthest such bin, for
    /// up to one entry in ``uncoveredShare``, and one more refinement follows. Median cut
    /// splits by how many pixels a box holds, so a small patch of a colour far from the rest
    /// (a launch pad's lights at the edge of a photograph, the bright disc of a retina)
    /// shares a box with larger areas and was drawn in their mean. Scored on every moving
    /// frame (`python3 bench/every-move.py WORKLOAD`: bytes, the moving frames' SSIMULACRA2
    /// mean, the frames more than 5 below pngquant's and the worst gap; sample banners /
    /// photographs / gradients), against 2,170,259 / 8,572,139 / 14,417,007 bytes, 87.05 /
    /// 78.78 / 80.87, 0 / 1 / 0 and −2.3 / −9.2 / −2.8 without: **one entry in 32 beyond
    /// 2,304**, 2,169,538 / 8,556,347 / 14,408,965, 87.05 / 79.36 / 80.95, 0 / 0 / 0, −2.3 /
    /// −3.2 / −2.8 (on the benchmark's sampled frames 88.60 / 80.90 / 82.33 against 88.60 /
    /// 80.55 / 82.32); the photographs' render executes 1.9% more instructions (5.438 G
    /// against 5.336 G, `bench/render-instructions.py`). Measured on the way (before reserved
    /// colours counted): 8 entries in every palette, the photographs 79.31 (−3.7); 8 beyond
    /// 6,400, 79.19 (−4.8); 16 beyond 2,304, the photographs and the gradients 79.28 / 80.84
    /// (−3.3 / −2.8); without the refinement after a move, the photographs 78.99 with a frame
    /// 5.1 below.
    static let uncoveredDistance: Int32 = 2304

    /// ``uncoveredDistance`` moves at most one entry in this many of those designed: 8 of
    /// 256, none below 32 entries, where every entry serves a large share of the picture
    /// (sixteen entries for ramps through six hues lost 22% of their fit, in squared Oklab
    /// distance, when 8 moved).
    static let uncoveredShare = 32

    /// Whether a picture of few colours, nearly all of its pixels in as many colours as the
    /// palette designs, is designed from its exact colours (``concentratedColors``,
    /// ``concentratedShare``). The GIF encoder sets it for rests, and for the last frames of a
    /// move, whose pixels settle into the rest after it and stay there.
    ///
    /// An app banner of flat fills, a gradient behind them and anti-aliased text has a
    /// thousand to a few thousand colours, most of its area in a few dozen: the steps of the
    /// gradient and the fills. Its histogram's cells (6 bits a channel) merge steps a level
    /// or two apart, so their entries lie between them and every step is dithered, a pattern
    /// over the whole background, where `pngquant 256` keeps each step exact. The banners of
    /// `bench/make-ui-banners.py` and the two limits are measured in docs/behaviour.md,
    /// *Rests of few colours, designed from them*.
    var exactWhereConcentrated = false

    /// The most colours a picture may have for ``exactWhereConcentrated``: a banner of 5,814
    /// colours scored lower from its exact colours than from the cells.
    static let concentratedColors = 4096

    /// The share of a picture's pixels (as counted) that its most used colours, as many as
    /// the palette designs, must hold for ``exactWhereConcentrated``, in percent: a smooth
    /// gradient of a few hundred colours spreads its pixels evenly, and scored lower from
    /// its exact colours.
    static let concentratedShare = 85.0

    /// The most k-means passes a designer makes: each pass moves every entry to the mean of
    /// its colours, and past a few the palette barely moves.
    public static let maximumRefinements = 16

    /// A designer for at most `maxColors` entries, clamped to 1...256, with `refinements`
    /// k-means passes, clamped to 0...``maximumRefinements``.
    public init(maxColors: Int, refinements: Int = PaletteDesigner.defaultRefinements, weights: ChannelWeights = .rgb,
                space: ColorSpace = .rgb) {
        self.maxColors = min(256, max(1, maxColors))
        self.refinements = min(PaletteDesigner.maximumRefinements, max(0, refinements))
        self.weights = weights
        self.space = space
    }

    /// The palette for the opaque pixels of `image` (alpha >= 128), `reserved` first
    /// (as many of them as leave room for one designed entry).
    ///
    /// Exact (every colour of the image, in order of first appearance) when they fit.
    ///
    /// `counts`, when given, says how much each pixel counts in the design, one value per
    /// pixel (0 counts as 1; an array of another length is ignored): a pixel shown longer
    /// may count more.
    public func design(_ image: RGBAImage, reserved: [RGBA] = [], counts: [UInt8]? = nil) -> (palette: [RGBA], exact: Bool) {
        design(image, reserved: reserved, counts: counts, coarse: nil)
    }

    /// ``design(_:reserved:counts:)``, with the pixels `coarse` flags (one flag per pixel; an
    /// array of another length is ignored) counted in cells of 5 bits per channel instead
    /// of 6: see ``Histogram``.
    func design(_ image: RGBAImage, reserved: [RGBA] = [], counts: [UInt8]? = nil,
                coarse: [Bool]?) -> (palette: [RGBA], exact: Bool) {
        // At least one entry is always designed from the image; reservations give way first.
        let reserved = Array(reserved.prefix(max(0, maxColors - 1)))
        let slots = maxColors - reserved.count
        // The colours, counted up to the most a rest of few colours may have when one is
        // looked for, else up to the entries: nil past that.
        let colours = Quantizer.distinctColors(image, limit: exactWhereConcentrated ? PaletteDesigner.concentratedColors : slots)
        if let colours, colours.count <= slots {
            return (reserved + colours.filter { !reserved.contains($0) }, true)
        }
        // A rest of few colours (``exactWhereConcentrated``: only then is `colours` left here)
        // takes them where as many as the palette designs hold nearly all of its pixels, and
        // needs no cells.
        let exact = colours.map { _ in Histogram(exactColorsOf: image, weights: weights, space: space, counts: counts) }
        var histogram: Histogram
        if let exact, exact.share(ofHeaviest: slots) * 100 >= PaletteDesigner.concentratedShare {
            histogram = exact
        } else {
            histogram = Histogram(image, weights: weights, space: space, counts: counts, coarse: coarse)
            // Fewer bins than entries (a picture of one hue fills few of them): designed from the
            // exact colours, every entry can serve. Measured before the grey bins, which now give
            // a grey picture's levels bins of their own: on `bench/quality-bench.py`'s `others`
            // workload a grey photograph's hold scored SSIMULACRA2 92.1 where pngquant's, exact,
            // scores 100, and the moves into it and out of it fell up to 8.6 below pngquant's;
            // with this and the dither mask's bend test, 97.8 and none more than 5 below
            // (`bench/quality-probe.py others`, `bench/every-move.py others`). The gradients, whose
            // smooth pictures fill few cells too, grew 2.5% (14,408,965 to 14,771,563 bytes at
            // 82.41 against 82.33, the worst frame 2.5 below pngquant's against 2.8,
            // `bench/quality-probe.py gradients`, without the bend test); with the bend test, the
            // sample banners' and the photographs' GIFs came out the same bytes with this and
            // without.
            if histogram.bins.count < slots {
                histogram = exact ?? Histogram(exactColorsOf: image, weights: weights, space: space, counts: counts)
            }
        }
        var palette = histogram.medianCut(colors: slots)
        var assignment: [UInt8] = []
        for _ in 0..<refinements { palette = histogram.refine(palette, assignment: &assignment) }
        if space == .oklab, let covered = histogram.covering(palette, reserved: reserved, assignment: assignment,
                                                             limit: PaletteDesigner.uncoveredDistance,
                                                             most: palette.count / PaletteDesigner.uncoveredShare) {
            palette = histogram.refine(covered, assignment: &assignment)
        }
        return (reserved + palette, false)
    }
}

/// A histogram of opaque pixels in cells of 6 bits per channel (and of one grey level),
/// each cell with its count and mean colour.
///
/// Pixels flagged coarse (at edges and in texture, where the picture masks a palette's
/// error: see ``DitherMask``) are counted in cells of 5 bits per channel instead, kept
/// apart from the fine cells. Photographs are mostly texture, and a moving frame of one
/// spreads over some ten thousand fine cells, each of which median cut and every k-means
/// pass visit; smooth gradients, where entries must be a few levels apart, keep the fine
/// cells.
///
/// Grey pixels (red, green and blue alike) that are not coarse count in a bin per level,
/// apart from the cells. In 6-bit cells a grey ramp fills one cell every four levels, so
/// beside other colours it got at most 64 entries, and the pattern showed between levels
/// four apart: five PngSuite images at 320x240 (`python3 bench/option-sweep.py BIN --every
/// 4 -- basn2c16.png basn6a08.png basn0g16.png basn3p08.png ccwn2c08.png --size 320x240`)
/// had frame 166, the first of a move from the grey ramp, at SSIMULACRA2 91.86 against
/// `pngquant 256`'s 97.75; with the grey bins 93.8. The gradients' grey backdrop gains too
/// (docs/behaviour.md, *Grey levels in bins of their own*).
///
/// In Oklab (``ColorSpace/oklab``) each bin also has the Oklab point of its mean, and the
/// design compares those: median cut splits boxes of points, k-means finds each bin's
/// nearest entry by point, and an entry is still the mean of its bins in RGB. Oklab's
/// steps follow what the eye tells apart, so the dark and blue stretches of a smooth
/// gradient get their share of the entries.
struct Histogram {
    struct Bin {
        var count: Double
        var r: Double
        var g: Double
        var b: Double
        /// Whether the bin is a coarse cell.
        var coarse = false
        func channel(_ c: Int) -> Double { c == 0 ? r : (c == 1 ? g : b) }

        /// The mean of channel `c` in 1/64 levels (14 bits).
        func fine(_ c: Int) -> Int { Int(channel(c) * 64) }

        /// A sort key: the channel `c` first, then red, green and blue (each mean in 1/64
        /// levels), then whether the bin is coarse.
        func key(_ c: Int) -> Int { fine(c) << 43 | fine(0) << 29 | fine(1) << 15 | fine(2) << 1 | (coarse ? 1 : 0) }
    }

    /// The cell keys: fine cells below 2^18, coarse cells above, then a cell for each grey level.
    static let fineCells = 1 << 18, greyCells = fineCells + (1 << 15), cells = greyCells + 256

    private(set) var bins: [Bin] = []
    /// Each bin's point in ``space``, the colour k-means looks up: its mean rounded to whole
    /// levels, or that colour's Oklab point.
    private var points: [(Int32, Int32, Int32)] = []
    /// How the channels count in squared errors and in k-means' nearest entry, in RGB.
    let weights: ChannelWeights
    /// Where colours are compared.
    let space: ColorSpace

    init(_ image: RGBAImage, weights: ChannelWeights = .rgb, space: ColorSpace = .rgb, counts: [UInt8]? = nil,
         coarse: [Bool]? = nil) {
        self.weights = weights
        self.space = space
        let counts = counts.flatMap { $0.count == image.width * image.height ? $0 : nil } ?? []
        let coarse = coarse.flatMap { $0.count == image.width * image.height ? $0 : nil } ?? []
        // Each used cell gets a slot, in order of first use: its key, count and the three channel sums.
        let slotOf = SlotTables.shared.take()
        let capacity = max(1, min(image.width * image.height, Histogram.cells))
        let sums = UnsafeMutablePointer<Int64>.allocate(capacity: capacity * 4)
        defer { sums.deallocate() }
        let keys = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        defer { keys.deallocate() }
        var used = 0
        image.pixels.withUnsafeBufferPointer { p in
            counts.withUnsafeBufferPointer { counts in coarse.withUnsafeBufferPointer { coarse in
                let weighted = counts.count > 0, twoSizes = coarse.count > 0
                var i = 0
                while i < p.count {
                    if p[i + 3] >= 128 {
                        let r = Int64(p[i]), g = Int64(p[i + 1]), b = Int64(p[i + 2])
                        let key = twoSizes && coarse[i >> 2]
                            ? Histogram.fineCells | Int((r >> 3) << 10 | (g >> 3) << 5 | (b >> 3))
                            : r == g && g == b ? Histogram.greyCells | Int(r)
                            : Int((r >> 2) << 12 | (g >> 2) << 6 | (b >> 2))
                        var slot = Int(slotOf[key])
                        if slot < 0 {
                            slot = used
                            keys[used] = Int32(key)
                            used &+= 1
                            slotOf[key] = Int32(slot)
                            (sums + slot &* 4).initialize(repeating: 0, count: 4)
                        }
                        let s = sums + slot &* 4
                        let n = weighted ? max(1, Int64(counts[i >> 2])) : 1
                        s[0] &+= n
                        s[1] &+= r &* n
                        s[2] &+= g &* n
                        s[3] &+= b &* n
                    }
                    i &+= 4
                }
            } }
        }
        // In cell order, so the bins do not depend on pixel order.
        var usedKeys = UnsafeMutableBufferPointer(start: keys, count: used)
        usedKeys.sort()
        bins.reserveCapacity(used)
        points.reserveCapacity(used)
        for key in usedKeys.lazy.map(Int.init) {
            let s = sums + Int(slotOf[key]) * 4
            let n = Double(s[0])
            let bin = Bin(count: n, r: Double(s[1]) / n, g: Double(s[2]) / n, b: Double(s[3]) / n,
                          coarse: key >= Histogram.fineCells && key < Histogram.greyCells)
            bins.append(bin)
            let rounded = (Int32(bin.r.rounded()), Int32(bin.g.rounded()), Int32(bin.b.rounded()))
            points.append(space == .oklab ? Oklab.point(rounded.0, rounded.1, rounded.2) : rounded)
            slotOf[key] = -1
        }
        SlotTables.shared.give(slotOf)
    }

    /// A histogram whose bins are the image's colours themselves (alpha >= 128), each with its
    /// count (weighted by `counts` as in ``init(_:weights:space:counts:coarse:)``), in colour
    /// order. For pixels whose cells are fewer than the entries wanted (a picture of one hue
    /// fills about 64 of them, so a palette designed from them has about 64 distinct
    /// entries, where its colours could have as many as the palette holds), and for a rest
    /// of few colours (``PaletteDesigner/exactWhereConcentrated``). Each used cell
    /// keeps the counts of its 64 colours (the low 2 bits of each channel), so the pass costs
    /// what the cells' pass costs.
    init(exactColorsOf image: RGBAImage, weights: ChannelWeights = .rgb, space: ColorSpace = .rgb, counts: [UInt8]? = nil) {
        self.weights = weights
        self.space = space
        let counts = counts.flatMap { $0.count == image.width * image.height ? $0 : nil } ?? []
        let slotOf = SlotTables.shared.take()
        var cells: [Int] = [], totals: [Int64] = []
        image.pixels.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                if p[i + 3] >= 128 {
                    let r = Int(p[i]), g = Int(p[i + 1]), b = Int(p[i + 2])
                    let cell = (r >> 2) << 12 | (g >> 2) << 6 | (b >> 2)
                    var slot = Int(slotOf[cell])
                    if slot < 0 {
                        slot = cells.count
                        cells.append(cell)
                        slotOf[cell] = Int32(slot)
                        totals.append(contentsOf: repeatElement(0, count: 64))
                    }
                    totals[slot << 6 | (r & 3) << 4 | (g & 3) << 2 | (b & 3)] += counts.isEmpty ? 1 : max(1, Int64(counts[i >> 2]))
                }
                i += 4
            }
        }
        var colors: [(color: Int, count: Int64)] = []
        for (slot, cell) in cells.enumerated() {
            slotOf[cell] = -1
            for low in 0..<64 where totals[slot << 6 | low] > 0 {
                let color = (cell >> 12) << 18 | (low >> 4) << 16 | (cell >> 6 & 63) << 10 | (low >> 2 & 3) << 8
                    | (cell & 63) << 2 | (low & 3)
                colors.append((color, totals[slot << 6 | low]))
            }
        }
        SlotTables.shared.give(slotOf)
        colors.sort { $0.color < $1.color }
        bins.reserveCapacity(colors.count)
        points.reserveCapacity(colors.count)
        for (color, n) in colors {
            let r = Int32(color >> 16), g = Int32(color >> 8 & 0xFF), b = Int32(color & 0xFF)
            bins.append(Bin(count: Double(n), r: Double(r), g: Double(g), b: Double(b)))
            points.append(space == .oklab ? Oklab.point(r, g, b) : (r, g, b))
        }
    }

    /// The share of the pixels (as counted) that the `n` bins with the largest counts hold: 0...1.
    func share(ofHeaviest n: Int) -> Double {
        let total = bins.reduce(0) { $0 + $1.count }
        guard total > 0 else { return 0 }
        return bins.map(\.count).sorted(by: >).prefix(n).reduce(0, +) / total
    }

    /// Variance-driven median cut: split the box with the largest squared error at the
    /// weighted median of its widest channel until there are `colors` boxes.
    ///
    /// A box split on a channel holds its bins in order of that channel's ``Bin/key(_:)``,
    /// and its sums (mean, error, widest channel) run in that order. The keys of cells are
    /// distinct (two cells of one size hold disjoint ranges of whole levels, so their means
    /// differ in some channel by at least a level; a fine and a coarse cell differ in the
    /// last bit); a grey bin can have a fine cell's mean (pixels (4, 5, 6) and (6, 5, 4)
    /// average grey 5), and bins of equal keys keep the histogram's order. Either way that
    /// order does not depend on how the box came about. Sorting each box before
    /// splitting it costs n log n per split; instead the bins are sorted once by each
    /// channel's key, and every box keeps its bins in all three orders, in the same range of
    /// three lists.
    /// Splitting a box cuts the list of its channel at the median and partitions the other
    /// two, keeping their order: linear in the box's size.
    ///
    /// In Oklab the boxes hold the bins' points (a quarter of each coordinate, so that they
    /// span about 0...256 as RGB's levels do and their keys keep 14 bits a channel), all three
    /// axes counting alike; two bins can share a point, and their order in each list is then
    /// the histogram's. Each box's entry is the mean of its bins' colours in RGB.
    func medianCut(colors: Int) -> [RGBA] {
        guard !bins.isEmpty, colors > 0 else { return colors > 0 ? [.black] : [] }
        let oklab = space == .oklab
        // What the boxes split: the bins themselves in RGB, their points in Oklab.
        let bins = oklab
            ? zip(self.bins, points).map { bin, p in
                Bin(count: bin.count, r: Double(p.0) / 4, g: Double(p.1) / 4, b: Double(p.2) / 4, coarse: bin.coarse)
            }
            : self.bins
        let count = bins.count
        let w = (Double(metric.r), Double(metric.g), Double(metric.b))
        // The bins by each channel's key, then by their place in the histogram.
        var lists: [[Int32]] = (0..<3).map { c in
            var keyed = bins.enumerated().map { (key: $1.key(c), bin: Int32($0)) }
            // Stable (as the standard library promises): bins of equal keys stay in histogram order.
            keyed.sort { $0.key < $1.key }
            return keyed.map(\.bin)
        }
        var boxes: [Range<Int>] = [0..<count]
        // The channel whose list holds each box's order; the first box keeps the histogram's (-1).
        var orders = [-1]
        let histogramOrder = Array(0..<Int32(count))
        /// `body` of the bins of `box` in its order: what the boxes split, or (`colors`) the
        /// histogram's bins with their colours.
        func sum<T>(_ box: Range<Int>, _ order: Int, colors: Bool = false,
                    _ body: (LazyMapCollection<ArraySlice<Int32>, Bin>) -> T) -> T {
            let source = colors ? self.bins : bins
            return body((order < 0 ? histogramOrder : lists[order])[box].lazy.map { source[Int($0)] })
        }
        var errors: [Double] = [Histogram.squaredError(bins[0..<count], weights: w)]
        var left = [Bool](repeating: false, count: count)
        var scratch = [Int32](repeating: 0, count: count)
        while boxes.count < colors {
            guard let worst = errors.indices.max(by: { errors[$0] < errors[$1] }), errors[worst] > 0 else { break }
            let box = boxes[worst]
            let channel = sum(box, orders[worst]) { Histogram.widestChannel($0, weights: w) }
            let sorted = lists[channel]
            let total = sorted[box].reduce(0) { $0 + bins[Int($1)].count }
            var running = 0.0
            var cut = box.lowerBound + 1
            for i in box {
                running += bins[Int(sorted[i])].count
                if running >= total / 2 {
                    cut = i + 1
                    break
                }
            }
            cut = min(max(cut, box.lowerBound + 1), box.upperBound - 1)
            // The other channels' lists: the left part's bins first, each part in its order.
            for i in box { left[Int(sorted[i])] = i < cut }
            for c in 0..<3 where c != channel {
                var l = box.lowerBound, r = cut
                for i in box {
                    let bin = lists[c][i]
                    if left[Int(bin)] {
                        scratch[l] = bin
                        l += 1
                    } else {
                        scratch[r] = bin
                        r += 1
                    }
                }
                lists[c].replaceSubrange(box, with: scratch[box])
            }
            boxes[worst] = box.lowerBound..<cut
            orders[worst] = channel
            errors[worst] = sum(box.lowerBound..<cut, channel) { Histogram.squaredError($0, weights: w) }
            boxes.append(cut..<box.upperBound)
            orders.append(channel)
            errors.append(sum(cut..<box.upperBound, channel) { Histogram.squaredError($0, weights: w) })
        }
        return zip(boxes, orders).map { box, order in
            let m = sum(box, order, colors: true) { Histogram.mean($0) }
            return RGBA(r: UInt8(m.0.rounded()), g: UInt8(m.1.rounded()), b: UInt8(m.2.rounded()))
        }
    }

    /// One k-means (Lloyd) pass: every bin joins its nearest entry, entries move to their members' mean.
    ///
    /// `assignment` holds each bin's entry from the pass before (empty before the first) and
    /// gets this pass's. A bin keeps its entry without a search when it is nearer to it than
    /// half the distance from that entry to any other: in the weighted distance, which is
    /// Euclidean in scaled channels, every other entry is then strictly farther (triangle
    /// inequality), so the result is the search's.
    ///
    /// In Oklab a bin joins the entry nearest to its point, and the same holds with the
    /// axes counting alike.
    func refine(_ palette: [RGBA], assignment: inout [UInt8]) -> [RGBA] {
        // The entries' points, and the nearest entry to a bin's point.
        let entries: [(Int32, Int32, Int32)], nearest: ((Int32, Int32, Int32)) -> UInt8
        if space == .oklab {
            entries = palette.map { Oklab.point($0) }
            let search = PaletteSearch(oklab: entries)
            nearest = { search.nearest(point: $0) }
        } else {
            let search = PaletteSearch(palette: palette, weights: weights)
            entries = palette.map { (Int32($0.r), Int32($0.g), Int32($0.b)) }
            nearest = { search.nearest($0.0, $0.1, $0.2) }
        }
        let metric = self.metric, (wr, wg, wb) = (metric.r, metric.g, metric.b)
        // Each entry's squared distance to its nearest other entry.
        var separation = [Int32](repeating: .max, count: entries.count)
        let guessed = assignment.count == bins.count
        if guessed {
            // In `Float`, exactly (every distance is an integer below 2^24), in a branch-free loop
            // over the channels in separate arrays, which the compiler vectorizes.
            let red = entries.map { Float($0.0) }, green = entries.map { Float($0.1) }, blue = entries.map { Float($0.2) }
            let (fr, fg, fb) = (Float(wr), Float(wg), Float(wb))
            red.withUnsafeBufferPointer { red in
                green.withUnsafeBufferPointer { green in
                    blue.withUnsafeBufferPointer { blue in
                        for a in 0..<red.count {
                            // The minimum over the distances' bit patterns (non-negative floats order
                            // as they do), as integers: a float minimum would not be vectorized. The
                            // entries before `a` and after it, in two loops without a select for `a`.
                            var nearest = Int32.max
                            @inline(__always) func scan(_ others: Range<Int>) {
                                for b in others {
                                    let dr = red[b] - red[a], dg = green[b] - green[a], db = blue[b] - blue[a]
                                    let d = Int32(bitPattern: (fr * (dr * dr) + fg * (dg * dg) + fb * (db * db)).bitPattern)
                                    nearest = d < nearest ? d : nearest
                                }
                            }
                            scan(0..<a)
                            scan((a + 1)..<red.count)
                            if nearest < .max { separation[a] = Int32(Float(bitPattern: UInt32(bitPattern: nearest))) }
                        }
                    }
                }
            }
        } else {
            assignment = [UInt8](repeating: 0, count: bins.count)
        }
        var sums = [(Double, Double, Double, Double)](repeating: (0, 0, 0, 0), count: palette.count)
        for (i, bin) in bins.enumerated() {
            let color = points[i]
            var k = Int(assignment[i])
            // 4 d(bin, entry)^2 < d(entry, other)^2 for every other entry: the entry is nearest.
            if !guessed || k >= entries.count || Int64(metric.distance(color, entries[k])) * 4 >= Int64(separation[k]) {
                k = Int(nearest(color))
                assignment[i] = UInt8(k)
            }
            sums[k].0 += bin.count
            sums[k].1 += bin.r * bin.count
            sums[k].2 += bin.g * bin.count
            sums[k].3 += bin.b * bin.count
        }
        return palette.indices.map { k in
            let s = sums[k]
            guard s.0 > 0 else { return palette[k] }
            return RGBA(r: UInt8((s.1 / s.0).rounded()), g: UInt8((s.2 / s.0).rounded()), b: UInt8((s.3 / s.0).rounded()))
        }
    }

    /// `palette` (designed in Oklab) with up to `most` of its least used entries moved, one at a
    /// time, onto the bin farthest from every entry and every `reserved` colour while one lies
    /// more than `limit` (squared distance) from all of them; nil when none does.
    /// `assignment` is each bin's entry from the last refinement (``refine(_:assignment:)``):
    /// only a bin farther than `limit` from its own entry can be that far from every entry,
    /// and the bins of an entry that moves join those looked at.
    func covering(_ palette: [RGBA], reserved: [RGBA], assignment: [UInt8], limit: Int32, most: Int) -> [RGBA]? {
        precondition(space == .oklab, "Histogram.covering: a palette designed in Oklab")
        guard most > 0, palette.count > 1, assignment.count == bins.count else { return nil }
        var entries = palette.map { Oklab.point($0) }
        let kept = reserved.map { Oklab.point($0) }
        let metric = self.metric
        var use = [Double](repeating: 0, count: palette.count)
        var far: [Int] = [], isFar = [Bool](repeating: false, count: bins.count)
        for i in bins.indices {
            let k = Int(assignment[i])
            use[k] += bins[i].count
            if metric.distance(points[i], entries[k]) > limit {
                far.append(i)
                isFar[i] = true
            }
        }
        guard !far.isEmpty else { return nil }
        // A bin's nearest designed entry (-1 when a reserved colour is nearer) and its distance.
        func nearest(_ p: (Int32, Int32, Int32)) -> (entry: Int, distance: Int32) {
            var best = (entry: -1, distance: Int32.max)
            for e in kept { best.distance = min(best.distance, metric.distance(p, e)) }
            for (k, e) in entries.enumerated() {
                let d = metric.distance(p, e)
                if d < best.distance { best = (k, d) }
            }
            return best
        }
        var nearestOf = far.map { nearest(points[$0]) }
        var palette = palette
        // The entries that move, least used first (the first of equals).
        let victims = palette.indices.sorted { use[$0] < use[$1] || use[$0] == use[$1] && $0 < $1 }
        var moves = 0
        for victim in victims.prefix(most) {
            var worst = -1
            for f in far.indices where nearestOf[f].distance > (worst < 0 ? limit : nearestOf[worst].distance) { worst = f }
            guard worst >= 0 else { break }
            moves += 1
            let target = far[worst], bin = bins[target]
            palette[victim] = RGBA(r: UInt8(bin.r.rounded()), g: UInt8(bin.g.rounded()), b: UInt8(bin.b.rounded()))
            entries[victim] = points[target]
            // Bins nearest the entry that moved look again; the rest compare the new place only.
            for f in far.indices {
                if nearestOf[f].entry == victim {
                    nearestOf[f] = nearest(points[far[f]])
                } else {
                    let d = metric.distance(points[far[f]], points[target])
                    if d < nearestOf[f].distance { nearestOf[f] = (victim, d) }
                }
            }
            // The bins the entry served, none of them far before, may be far now.
            for i in bins.indices where Int(assignment[i]) == victim && !isFar[i] {
                far.append(i)
                isFar[i] = true
                nearestOf.append(nearest(points[i]))
            }
        }
        return moves > 0 ? palette : nil
    }

    /// How the axes count in distances in ``space``: ``weights`` in RGB, alike in Oklab.
    var metric: ChannelWeights { space == .oklab ? .rgb : weights }

    static func mean<C: Collection<Bin>>(_ bins: C) -> (Double, Double, Double) {
        var n = 0.0, r = 0.0, g = 0.0, b = 0.0
        for bin in bins {
            n += bin.count
            r += bin.r * bin.count
            g += bin.g * bin.count
            b += bin.b * bin.count
        }
        return (r / n, g / n, b / n)
    }

    static func squaredError<C: Collection<Bin>>(_ bins: C, weights w: (Double, Double, Double)) -> Double {
        guard bins.count > 1 else { return 0 }
        let m = mean(bins)
        var total = 0.0
        for bin in bins {
            let dr = bin.r - m.0, dg = bin.g - m.1, db = bin.b - m.2
            total += bin.count * (w.0 * dr * dr + w.1 * dg * dg + w.2 * db * db)
        }
        return total
    }

    static func widestChannel<C: Collection<Bin>>(_ bins: C, weights w: (Double, Double, Double)) -> Int {
        let m = mean(bins)
        var variance = [0.0, 0.0, 0.0]
        for bin in bins {
            variance[0] += w.0 * bin.count * (bin.r - m.0) * (bin.r - m.0)
            variance[1] += w.1 * bin.count * (bin.g - m.1) * (bin.g - m.1)
            variance[2] += w.2 * bin.count * (bin.b - m.2) * (bin.b - m.2)
        }
        return variance.indices.max { variance[$0] < variance[$1] } ?? 0
    }
}

/// The cell-to-slot tables of ``Histogram``, kept for reuse. A table has an entry for each
/// of the 2^18 fine and 2^15 coarse cells and the 256 grey levels (1.1 MiB), all -1 while
/// it is free; allocating
/// and clearing one for every palette designed showed in profiles (page faults and memset). A histogram takes one and
/// gives it back with the entries it set cleared, so the pool holds one table for each
/// palette designed at the same time (about one per core), for the life of the process.
private final class SlotTables: @unchecked Sendable {
    // `@unchecked Sendable`: `free` is read and written only while holding `lock`.
    static let shared = SlotTables()
    private var free: [UnsafeMutablePointer<Int32>] = []
    private let lock = Lock()

    /// A table with every entry -1.
    func take() -> UnsafeMutablePointer<Int32> {
        lock.lock()
        defer { lock.unlock() }
        if let table = free.popLast() { return table }
        let table = UnsafeMutablePointer<Int32>.allocate(capacity: Histogram.cells)
        table.initialize(repeating: -1, count: Histogram.cells)
        return table
    }

    /// Returns a table taken, every entry -1 again.
    func give(_ table: UnsafeMutablePointer<Int32>) {
        lock.lock()
        defer { lock.unlock() }
        free.append(table)
    }
}
