/// The nearest palette entry by searching every entry (weighted squared distance, lowest
/// index on ties): the same answer as ``ColorMapper/nearest(_:_:_:)`` with the same weights.
///
/// A value with no caches, so any number of threads may share it. It serves where few
/// colours are looked up per palette, so ``ColorMapper``'s lists would cost more to build
/// than they save: the pixels of overlay edges, and each k-means pass over a histogram
/// (whose bins spread over colour space, about one list per three lookups). The entries are
/// kept by channel and padded to a multiple of 8 with entries farther than any colour, so
/// a search is one branch-free loop, which the compiler vectorizes.
struct PaletteSearch: Sendable {
    private let r: [Int32], g: [Int32], b: [Int32]
    private let weights: ChannelWeights

    /// A channel value for padding, as in ``ColorMapper``: never nearest, and no distance overflows.
    private static let padding: Int32 = 3000
    /// Above every real distance (at most 255² times the weights' sum, below 2^22), below 2^23.
    private static let ceiling: Int32 = (1 << 22) - 1

    /// A search over `palette` (at most 256 entries) by distance with `weights`; an empty
    /// palette maps everything to index 0.
    init(palette: [RGBA], weights: ChannelWeights = .rgb) {
        self.weights = weights
        let palette = palette.isEmpty ? [RGBA.black] : palette
        let pad = [Int32](repeating: PaletteSearch.padding, count: (8 - palette.count % 8) % 8)
        r = palette.map { Int32($0.r) } + pad
        g = palette.map { Int32($0.g) } + pad
        b = palette.map { Int32($0.b) } + pad
    }

    /// The index of the entry nearest to (red, green, blue).
    ///
    /// Each entry's distance is shifted above its index, so the smallest value is the
    /// nearest entry, the first on ties.
    func nearest(_ red: Int32, _ green: Int32, _ blue: Int32) -> UInt8 {
        let wr = weights.r, wg = weights.g, wb = weights.b
        return r.withUnsafeBufferPointer { r in
            g.withUnsafeBufferPointer { g in
                b.withUnsafeBufferPointer { b in
                    var best = Int32.max
                    var e = 0
                    while e < r.count {
                        let dr = r[e] &- red, dg = g[e] &- green, db = b[e] &- blue
                        var d = wr &* dr &* dr &+ wg &* dg &* dg &+ wb &* db &* db
                        d = d < PaletteSearch.ceiling ? d : PaletteSearch.ceiling
                        let packed = d &<< 8 | Int32(truncatingIfNeeded: e)
                        best = packed < best ? packed : best
                        e &+= 1
                    }
                    return UInt8(truncatingIfNeeded: best & 0xFF)
                }
            }
        }
    }
}
