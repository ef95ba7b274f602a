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
    private let r: [Float], g: [Float], b: [Float]
    private let weights: (Float, Float, Float)

    /// A search over `palette` (at most 256 entries) by distance with `weights`; an empty
    /// palette maps everything to index 0.
    init(palette: [RGBA], weights: ChannelWeights = .rgb) {
        self.weights = (Float(weights.r), Float(weights.g), Float(weights.b))
        let palette = palette.isEmpty ? [RGBA.black] : palette
        // Far from every colour, as ColorMapper's padding: never nearest.
        let pad = [Float](repeating: 3000, count: (8 - palette.count % 8) % 8)
        r = palette.map { Float($0.r) } + pad
        g = palette.map { Float($0.g) } + pad
        b = palette.map { Float($0.b) } + pad
    }

    /// The index of the entry nearest to (red, green, blue), by the loop of ``ColorMapper``.
    func nearest(_ red: Int32, _ green: Int32, _ blue: Int32) -> UInt8 {
        r.withUnsafeBufferPointer { r in
            g.withUnsafeBufferPointer { g in
                b.withUnsafeBufferPointer { b in
                    let best = ColorMapper.search(red: r.baseAddress!, green: g.baseAddress!, blue: b.baseAddress!,
                                                  count: r.count, color: (Float(red), Float(green), Float(blue)),
                                                  weights: weights)
                    return UInt8(truncatingIfNeeded: best & 0xFF)
                }
            }
        }
    }
}
