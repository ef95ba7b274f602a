/// Finds the nearest palette entry for a colour (squared distance with the channels
/// weighted by ``ChannelWeights``, lowest index on ties), fast.
///
/// The RGB cube is cut into 32x32x32 cells. The first time a colour falls in a cell,
/// the mapper lists the entries that can be nearest to any colour of that cell:
/// those whose closest possible distance to the cell is no more than the smallest
/// farthest distance of any entry. A lookup then searches only that short list, and
/// gives exactly what a search of the whole palette would. The lists are built in two
/// levels: 8x8x8 coarse cells from the whole palette, fine cells from their coarse
/// cell's list (an entry nearest somewhere in a fine cell is nearest somewhere in the
/// coarse cell that contains it).
///
/// `nearest` fills its lists as it goes, so one mapper serves one thread at a time
/// (it is not `Sendable`); `PaletteSearch` gives the same answers and may be shared.
public final class ColorMapper {
    /// The palette searched.
    public let palette: [RGBA]
    /// How the channels count in the distance.
    public let weights: ChannelWeights
    /// Every entry's index, the candidates of a coarse cell before it is narrowed.
    private let entries: [UInt8]
    // Lookup tables in manually managed memory: the hot path reads them without
    // bounds or exclusivity checks. Freed in deinit.
    private let cellStart = UnsafeMutablePointer<Int32>.allocate(capacity: 32 * 32 * 32)
    private let cellCount = UnsafeMutablePointer<UInt16>.allocate(capacity: 32 * 32 * 32)
    private let rgb: UnsafeMutablePointer<Int32>
    private var candidates: UnsafeMutablePointer<UInt8>
    private var candidateCount = 0
    private var candidateCapacity = 4096
    /// One cell's list while it is built (at most 256 entries).
    private let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)

    /// A mapper over `palette` (1...256 entries) by distance with `weights`; an empty palette
    /// maps everything to black at index 0.
    public init(palette: [RGBA], weights: ChannelWeights = .rgb) {
        let palette = palette.isEmpty ? [RGBA.black] : palette
        self.palette = palette
        self.weights = weights
        entries = palette.indices.map { UInt8($0) }
        cellStart.initialize(repeating: -1, count: 32 * 32 * 32)
        cellCount.initialize(repeating: 0, count: 32 * 32 * 32)
        rgb = .allocate(capacity: palette.count * 3)
        for (e, c) in palette.enumerated() {
            rgb[e * 3] = Int32(c.r)
            rgb[e * 3 + 1] = Int32(c.g)
            rgb[e * 3 + 2] = Int32(c.b)
        }
        candidates = .allocate(capacity: candidateCapacity)
    }

    deinit {
        cellStart.deallocate()
        cellCount.deallocate()
        rgb.deallocate()
        candidates.deallocate()
        scratch.deallocate()
    }

    /// The nearest entry to (r, g, b).
    @inline(__always)
    public func nearest(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt8 {
        let cell = Int((r >> 3) << 10 | (g >> 3) << 5 | (b >> 3))
        if cellStart[cell] < 0 { fill(cell) }
        let start = Int(cellStart[cell]), end = start + Int(cellCount[cell])
        var best = 0, bestDistance = Int32.max
        let weights = self.weights
        var k = start
        while k < end {
            let e = Int(candidates[k])
            // Wrapping arithmetic: channels are 0...255, so nothing overflows.
            let dr = rgb[e &* 3] &- r, dg = rgb[e &* 3 &+ 1] &- g, db = rgb[e &* 3 &+ 2] &- b
            let d = weights.distance(dr, dg, db)
            if d < bestDistance {
                bestDistance = d
                best = e
            }
            k &+= 1
        }
        return UInt8(truncatingIfNeeded: best)
    }

    private var coarseStart = [Int32](repeating: -1, count: 8 * 8 * 8)
    private var coarseCount = [UInt16](repeating: 0, count: 8 * 8 * 8)
    private var coarseCandidates: [UInt8] = []

    /// Writes to `out` the entries among `from` that can be nearest somewhere in the box
    /// of side `size` at `low`; returns how many.
    private func candidates(in low: (Int32, Int32, Int32), size: Int32, from: UnsafeBufferPointer<UInt8>,
                            into out: UnsafeMutablePointer<UInt8>) -> Int {
        // Wrapping arithmetic: channels and box corners are 0...255, so nothing overflows.
        let high = (low.0 &+ size &- 1, low.1 &+ size &- 1, low.2 &+ size &- 1)
        @inline(__always) func far(_ v: Int32, _ low: Int32, _ high: Int32) -> Int32 {
            let d = max(v &- low, high &- v)
            return d &* d
        }
        @inline(__always) func near(_ v: Int32, _ low: Int32, _ high: Int32) -> Int32 {
            let d = max(0, max(low &- v, v &- high))
            return d &* d
        }
        var threshold = Int32.max
        for e in from {
            let k = Int(e) &* 3
            threshold = min(threshold, weights.r &* far(rgb[k], low.0, high.0) &+ weights.g &* far(rgb[k &+ 1], low.1, high.1)
                                       &+ weights.b &* far(rgb[k &+ 2], low.2, high.2))
        }
        var count = 0
        for e in from {
            let k = Int(e) &* 3
            if weights.r &* near(rgb[k], low.0, high.0) &+ weights.g &* near(rgb[k &+ 1], low.1, high.1)
                &+ weights.b &* near(rgb[k &+ 2], low.2, high.2) <= threshold {
                out[count] = e
                count &+= 1
            }
        }
        return count
    }

    private func fill(_ cell: Int) {
        let r = Int32((cell >> 10) & 31), g = Int32((cell >> 5) & 31), b = Int32(cell & 31)
        let coarse = Int((r >> 2) << 6 | (g >> 2) << 3 | (b >> 2))
        if coarseStart[coarse] < 0 {
            let n = entries.withUnsafeBufferPointer {
                candidates(in: ((r >> 2) << 5, (g >> 2) << 5, (b >> 2) << 5), size: 32, from: $0, into: scratch)
            }
            coarseStart[coarse] = Int32(coarseCandidates.count)
            coarseCount[coarse] = UInt16(n)
            coarseCandidates.append(contentsOf: UnsafeBufferPointer(start: scratch, count: n))
        }
        let start = Int(coarseStart[coarse])
        let count = coarseCandidates.withUnsafeBufferPointer {
            candidates(in: (r << 3, g << 3, b << 3), size: 8,
                       from: UnsafeBufferPointer(rebasing: $0[start..<(start + Int(coarseCount[coarse]))]), into: scratch)
        }
        if candidateCount + count > candidateCapacity {
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: max(candidateCapacity * 2, candidateCount + count))
            grown.initialize(from: candidates, count: candidateCount)
            candidates.deallocate()
            candidates = grown
            candidateCapacity = max(candidateCapacity * 2, candidateCount + count)
        }
        (candidates + candidateCount).initialize(from: scratch, count: count)
        cellStart[cell] = Int32(candidateCount)
        cellCount[cell] = UInt16(count)
        candidateCount += count
    }
}
