/// The nearest palette entry by searching every entry (weighted squared distance, lowest
/// index on ties): the same answer as ``ColorMapper/nearest(_:_:_:)`` with the same weights.
///
/// A value with no caches, so any number of threads may share it; for the few
/// pixels (overlay edges) that are not mapped through a scene's ``ColorMapper``.
struct PaletteSearch: Sendable {
    private let r: [Int32], g: [Int32], b: [Int32]
    private let weights: ChannelWeights

    /// A search over `palette` by distance with `weights`; an empty palette maps everything to index 0.
    init(palette: [RGBA], weights: ChannelWeights = .rgb) {
        self.weights = weights
        let palette = palette.isEmpty ? [RGBA.black] : palette
        r = palette.map { Int32($0.r) }
        g = palette.map { Int32($0.g) }
        b = palette.map { Int32($0.b) }
    }

    /// The index of the entry nearest to (r, g, b).
    func nearest(_ red: Int32, _ green: Int32, _ blue: Int32) -> UInt8 {
        var best = 0, bestDistance = Int32.max
        for e in 0..<r.count {
            let dr = r[e] - red, dg = g[e] - green, db = b[e] - blue
            let d = weights.distance(dr, dg, db)
            if d < bestDistance {
                bestDistance = d
                best = e
            }
        }
        return UInt8(best)
    }
}
