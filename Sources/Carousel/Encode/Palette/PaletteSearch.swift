/// The nearest palette entry (weighted squared distance in RGB, or distance in Oklab; lowest
/// index on ties): the same answer as ``ColorMapper/nearest(_:_:_:)`` and
/// ``ColorMapper/nearest(point:)`` with the same weights or space, with no caches.
///
/// A value, so any number of threads may share it. It serves where few colours are looked
/// up per palette, so ``ColorMapper``'s lists would cost more to build than they save: the
/// pixels of overlay edges, and each k-means pass over a histogram (whose bins spread over
/// colour space, about one list per three lookups).
///
/// The entries are kept sorted by the axis that spans most: green, which weighs most, in
/// RGB; lightness in Oklab. A search starts at the colour's coordinate on that axis and
/// walks outwards both ways, and stops in each direction at the first entry whose
/// difference on that axis alone, weighted, exceeds the best distance found: every entry
/// beyond it is farther still. On a 256-entry palette it visits a few dozen.
struct PaletteSearch: Sendable {
    /// The entries' coordinates, the walked axis as `g`, in order of it (then index), and
    /// their indices.
    private let r: [Int32], g: [Int32], b: [Int32], index: [Int32]
    /// The weights of `r`, `g` and `b`.
    private let weights: (r: Int32, g: Int32, b: Int32)
    /// Whether the coordinates are Oklab's (lightness walked as `g`).
    private let oklab: Bool

    /// A search over `palette` (at most 256 entries) by distance with `weights`; an empty
    /// palette maps everything to index 0.
    init(palette: [RGBA], weights: ChannelWeights = .rgb) {
        let palette = palette.isEmpty ? [RGBA.black] : palette
        self.init(palette.map { (Int32($0.r), Int32($0.g), Int32($0.b)) },
                  weights: (weights.r, weights.g, weights.b), oklab: false)
    }

    /// A search over a palette's ``Oklab`` points (at most 256, entry by entry), all three
    /// axes counting alike; no points map everything to index 0.
    init(oklab points: [(Int32, Int32, Int32)]) {
        let points = points.isEmpty ? [Oklab.point(.black)] : points
        // Lightness, the axis that spans most, is the one walked.
        self.init(points.map { ($0.1, $0.0, $0.2) }, weights: (1, 1, 1), oklab: true)
    }

    /// A search over `points` whose second coordinate is walked.
    private init(_ points: [(Int32, Int32, Int32)], weights: (r: Int32, g: Int32, b: Int32), oklab: Bool) {
        self.weights = weights
        self.oklab = oklab
        // By the walked axis, then index: one integer key each (the coordinate above the
        // index), sorted as integers.
        let order = points.indices.map { Int(points[$0].1) << 16 | $0 }.sorted().map { $0 & 0xFFFF }
        r = order.map { points[$0].0 }
        g = order.map { points[$0].1 }
        b = order.map { points[$0].2 }
        index = order.map { Int32($0) }
    }

    /// The index of the entry nearest to the Oklab point `p` (a search made with
    /// ``init(oklab:)``).
    func nearest(point p: (Int32, Int32, Int32)) -> UInt8 {
        precondition(oklab, "PaletteSearch.nearest(point:) needs a search in Oklab")
        return nearest(p.1, p.0, p.2)
    }

    /// The index of the entry nearest to (red, green, blue).
    ///
    /// Distances are compared as (distance << 8 | index), so equal distances go to the
    /// lower index; the walk goes on while the difference on the walked axis alone could
    /// still tie. In a search made with ``init(oklab:)``, ask ``nearest(point:)``.
    func nearest(_ red: Int32, _ green: Int32, _ blue: Int32) -> UInt8 {
        let wr = weights.r, wg = weights.g, wb = weights.b
        return r.withUnsafeBufferPointer { r in
            g.withUnsafeBufferPointer { g in
                b.withUnsafeBufferPointer { b in
                    index.withUnsafeBufferPointer { index in
                        // The first entry with green >= the colour's (g.count if none), by a binary
                        // search whose steps add by a mask rather than branch (the sign of the
                        // green difference): how many there are depends on the palette's size
                        // alone, so the processor predicts every one.
                        var base = 0, length = g.count
                        while length > 1 {
                            let half = length / 2
                            base &+= half & Int((g[base &+ half] &- green) >> 31)
                            length &-= half
                        }
                        let low = base &+ Int(UInt32(bitPattern: g[base] &- green) >> 31)
                        var best = Int64.max
                        @inline(__always) func visit(_ k: Int) {
                            let dr = r[k] &- red, dg = g[k] &- green, db = b[k] &- blue
                            let d = Int64(wr &* dr &* dr &+ wg &* dg &* dg &+ wb &* db &* db)
                            let packed = d << 8 | Int64(index[k])
                            if packed < best { best = packed }
                        }
                        var up = low
                        while up < g.count {
                            let dg = g[up] &- green
                            if Int64(wg &* dg &* dg) > best >> 8 { break }
                            visit(up)
                            up &+= 1
                        }
                        var down = low &- 1
                        while down >= 0 {
                            let dg = green &- g[down]
                            if Int64(wg &* dg &* dg) > best >> 8 { break }
                            visit(down)
                            down &-= 1
                        }
                        return UInt8(truncatingIfNeeded: best & 0xFF)
                    }
                }
            }
        }
    }
}
