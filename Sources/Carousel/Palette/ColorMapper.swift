/// Finds the nearest palette entry for a colour (squared RGB distance, lowest index on ties), fast.
///
/// The RGB cube is cut into 32x32x32 cells. The first time a colour falls in a cell,
/// the mapper lists the entries that can be nearest to any colour of that cell:
/// those whose closest possible distance to the cell is no more than the smallest
/// farthest distance of any entry. A lookup then searches only that short list, and
/// gives exactly what a search of the whole palette would.
public final class ColorMapper {
    /// The palette searched.
    public let palette: [RGBA]
    private let pr: [Int32], pg: [Int32], pb: [Int32]
    private var cellStart = [Int32](repeating: -1, count: 32 * 32 * 32)
    private var cellCount = [UInt16](repeating: 0, count: 32 * 32 * 32)
    private var candidates: [UInt8] = []

    /// A mapper over `palette` (1...256 entries); entries listed in `excluded` are never chosen.
    public init(palette: [RGBA], excluded: Set<Int> = []) {
        self.palette = palette
        let usable = palette.indices.filter { !excluded.contains($0) }
        pr = usable.map { Int32(palette[$0].r) }
        pg = usable.map { Int32(palette[$0].g) }
        pb = usable.map { Int32(palette[$0].b) }
        indexOf = usable.map { UInt8($0) }
    }

    private let indexOf: [UInt8]

    /// The nearest entry to (r, g, b).
    @inline(__always)
    public func nearest(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt8 {
        let cell = Int((r >> 3) << 10 | (g >> 3) << 5 | (b >> 3))
        if cellStart[cell] < 0 { fill(cell) }
        let start = Int(cellStart[cell]), count = Int(cellCount[cell])
        var best = 0, bestDistance = Int32.max
        for k in start..<(start + count) {
            let e = Int(candidates[k])
            let dr = pr[e] - r, dg = pg[e] - g, db = pb[e] - b
            let d = dr * dr + dg * dg + db * db
            if d < bestDistance {
                bestDistance = d
                best = e
            }
        }
        return indexOf[best]
    }

    private func fill(_ cell: Int) {
        let lo = [Int32((cell >> 10) & 31) << 3, Int32((cell >> 5) & 31) << 3, Int32(cell & 31) << 3]
        func span(_ v: Int32, _ low: Int32) -> (Int32, Int32) {
            let high = low + 7
            let near = v < low ? low - v : (v > high ? v - high : 0)
            let far = max(abs(v - low), abs(v - high))
            return (near * near, far * far)
        }
        var nearDistances = [Int32](repeating: 0, count: pr.count)
        var threshold = Int32.max
        for e in 0..<pr.count {
            let (nr, fr) = span(pr[e], lo[0]), (ng, fg) = span(pg[e], lo[1]), (nb, fb) = span(pb[e], lo[2])
            nearDistances[e] = nr + ng + nb
            threshold = min(threshold, fr + fg + fb)
        }
        cellStart[cell] = Int32(candidates.count)
        var count: UInt16 = 0
        for e in 0..<pr.count where nearDistances[e] <= threshold {
            candidates.append(UInt8(e))
            count += 1
        }
        cellCount[cell] = count
    }
}
