import Foundation

/// Reduces an RGBA frame to at most `maxColors` palette entries.
///
/// Exact when the frame has that few colours (every pixel keeps its colour).
/// Otherwise it designs a palette by variance-driven median cut over a 6-bit-per-channel
/// histogram: the box with the largest squared error is split at the weighted
/// median of its widest-variance channel, and each box's mean becomes a palette
/// entry. Every pixel then maps to its nearest entry (squared RGB distance, lowest
/// index on ties), optionally dithered, so the result is deterministic. Pixels with
/// alpha below 128 map to a reserved transparent entry.
public struct Quantizer: Sendable {
    /// Palette size limit, 2...256.
    public let maxColors: Int
    /// Dithering used when the palette is not exact.
    public let dither: Dither

    /// Creates a quantizer for at most `maxColors` colours (clamped to 2...256).
    public init(maxColors: Int = 256, dither: Dither = .none) {
        self.maxColors = min(256, max(2, maxColors))
        self.dither = dither
    }

    /// Quantizes `image`.
    public func quantize(_ image: RGBAImage) -> IndexedFrame {
        let hasTransparency = stride(from: 3, to: image.pixels.count, by: 4).contains { image.pixels[$0] < 128 }
        let opaqueSlots = maxColors - (hasTransparency ? 1 : 0)
        if let exact = exactPalette(image, limit: opaqueSlots) {
            return map(image, palette: exact, transparent: hasTransparency)
        }
        let palette = medianCut(image, colors: opaqueSlots)
        switch dither {
        case .none: return map(image, palette: palette, transparent: hasTransparency)
        case .ordered: return mapOrdered(image, palette: palette, transparent: hasTransparency)
        case .diffusion: return mapDiffused(image, palette: palette, transparent: hasTransparency)
        }
    }

    /// The opaque colours of `image` in order of first appearance, or `nil` when there are more than `limit`.
    func exactPalette(_ image: RGBAImage, limit: Int) -> [RGBA]? {
        var seen: [UInt32: Int] = [:]
        var palette: [RGBA] = []
        let p = image.pixels
        for i in stride(from: 0, to: p.count, by: 4) where p[i + 3] >= 128 {
            let key = UInt32(p[i]) << 16 | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2])
            if seen[key] == nil {
                guard palette.count < limit else { return nil }
                seen[key] = palette.count
                palette.append(RGBA(r: p[i], g: p[i + 1], b: p[i + 2]))
            }
        }
        return palette
    }

    private struct Bin {
        var count: Double
        var r: Double
        var g: Double
        var b: Double
        func channel(_ c: Int) -> Double { c == 0 ? r : (c == 1 ? g : b) }
    }

    /// Palette design by variance-driven median cut on a 6-bit histogram.
    func medianCut(_ image: RGBAImage, colors: Int) -> [RGBA] {
        var counts = [Int](repeating: 0, count: 1 << 18)
        var sums = [Int](repeating: 0, count: 3 << 18)
        let p = image.pixels
        for i in stride(from: 0, to: p.count, by: 4) where p[i + 3] >= 128 {
            let key = Int(p[i] >> 2) << 12 | Int(p[i + 1] >> 2) << 6 | Int(p[i + 2] >> 2)
            counts[key] += 1
            sums[key * 3] += Int(p[i])
            sums[key * 3 + 1] += Int(p[i + 1])
            sums[key * 3 + 2] += Int(p[i + 2])
        }
        var bins: [Bin] = []
        for key in 0..<counts.count where counts[key] > 0 {
            let n = Double(counts[key])
            bins.append(Bin(count: n, r: Double(sums[key * 3]) / n, g: Double(sums[key * 3 + 1]) / n,
                            b: Double(sums[key * 3 + 2]) / n))
        }
        guard !bins.isEmpty else { return [.black] }
        var boxes: [Range<Int>] = [0..<bins.count]
        var errors: [Double] = [squaredError(bins[0..<bins.count])]
        while boxes.count < colors {
            guard let worst = errors.indices.max(by: { errors[$0] < errors[$1] }), errors[worst] > 0 else { break }
            let box = boxes[worst]
            let channel = widestChannel(bins[box])
            bins[box].sort { ($0.channel(channel), $0.r, $0.g, $0.b) < ($1.channel(channel), $1.r, $1.g, $1.b) }
            let total = bins[box].reduce(0) { $0 + $1.count }
            var running = 0.0
            var cut = box.lowerBound + 1
            for i in box {
                running += bins[i].count
                if running >= total / 2 { cut = i + 1; break }
            }
            cut = min(max(cut, box.lowerBound + 1), box.upperBound - 1)
            let lower = box.lowerBound..<cut, upper = cut..<box.upperBound
            boxes[worst] = lower
            errors[worst] = squaredError(bins[lower])
            boxes.append(upper)
            errors.append(squaredError(bins[upper]))
        }
        return boxes.map { box in
            let m = mean(bins[box])
            return RGBA(r: UInt8(m.0.rounded()), g: UInt8(m.1.rounded()), b: UInt8(m.2.rounded()))
        }
    }

    private func mean(_ bins: ArraySlice<Bin>) -> (Double, Double, Double) {
        var n = 0.0, r = 0.0, g = 0.0, b = 0.0
        for bin in bins {
            n += bin.count
            r += bin.r * bin.count
            g += bin.g * bin.count
            b += bin.b * bin.count
        }
        return (r / n, g / n, b / n)
    }

    private func squaredError(_ bins: ArraySlice<Bin>) -> Double {
        guard bins.count > 1 else { return 0 }
        let m = mean(bins)
        return bins.reduce(0) { acc, bin in
            let dr = bin.r - m.0, dg = bin.g - m.1, db = bin.b - m.2
            return acc + bin.count * (dr * dr + dg * dg + db * db)
        }
    }

    private func widestChannel(_ bins: ArraySlice<Bin>) -> Int {
        let m = mean(bins)
        var variance = [0.0, 0.0, 0.0]
        for bin in bins {
            variance[0] += bin.count * (bin.r - m.0) * (bin.r - m.0)
            variance[1] += bin.count * (bin.g - m.1) * (bin.g - m.1)
            variance[2] += bin.count * (bin.b - m.2) * (bin.b - m.2)
        }
        return variance.indices.max { variance[$0] < variance[$1] } ?? 0
    }

    /// Maps every pixel to its nearest palette entry; transparent pixels to an extra last entry.
    func map(_ image: RGBAImage, palette: [RGBA], transparent: Bool) -> IndexedFrame {
        var cache: [UInt32: UInt8] = [:]
        let transparentIndex = transparent ? palette.count : nil
        var indices = [UInt8](repeating: 0, count: image.width * image.height)
        let p = image.pixels
        for i in 0..<indices.count {
            let o = i * 4
            if p[o + 3] < 128, let t = transparentIndex {
                indices[i] = UInt8(t)
                continue
            }
            let key = UInt32(p[o]) << 16 | UInt32(p[o + 1]) << 8 | UInt32(p[o + 2])
            if let hit = cache[key] {
                indices[i] = hit
                continue
            }
            let best = nearest(Int(p[o]), Int(p[o + 1]), Int(p[o + 2]), in: palette)
            cache[key] = best
            indices[i] = best
        }
        return IndexedFrame(width: image.width, height: image.height,
                            palette: transparent ? palette + [.clear] : palette,
                            indices: indices, transparentIndex: transparentIndex)
    }

    /// The index of the palette entry nearest to (r, g, b), lowest index on ties.
    func nearest(_ r: Int, _ g: Int, _ b: Int, in palette: [RGBA]) -> UInt8 {
        var best = 0, bestDistance = Int.max
        for (k, c) in palette.enumerated() {
            let dr = Int(c.r) - r, dg = Int(c.g) - g, db = Int(c.b) - b
            let d = dr * dr + dg * dg + db * db
            if d < bestDistance {
                bestDistance = d
                best = k
            }
        }
        return UInt8(best)
    }

    /// Ordered dithering: each pixel is offset by its Bayer threshold, scaled to the
    /// palette's typical spacing, before the nearest-colour lookup.
    func mapOrdered(_ image: RGBAImage, palette: [RGBA], transparent: Bool) -> IndexedFrame {
        let spread = 255.0 / Foundation.cbrt(Double(palette.count)) / 5
        var cache: [UInt32: UInt8] = [:]
        let transparentIndex = transparent ? palette.count : nil
        var indices = [UInt8](repeating: 0, count: image.width * image.height)
        let p = image.pixels
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = y * image.width + x, o = i * 4
                if p[o + 3] < 128, let t = transparentIndex {
                    indices[i] = UInt8(t)
                    continue
                }
                let offset = Int(((Double(bayer8[(y & 7) * 8 + (x & 7)]) + 0.5) / 64 - 0.5) * spread)
                let r = min(255, max(0, Int(p[o]) + offset))
                let g = min(255, max(0, Int(p[o + 1]) + offset))
                let b = min(255, max(0, Int(p[o + 2]) + offset))
                let key = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
                if let hit = cache[key] {
                    indices[i] = hit
                } else {
                    let best = nearest(r, g, b, in: palette)
                    cache[key] = best
                    indices[i] = best
                }
            }
        }
        return IndexedFrame(width: image.width, height: image.height,
                            palette: transparent ? palette + [.clear] : palette,
                            indices: indices, transparentIndex: transparentIndex)
    }

    /// Floyd–Steinberg error diffusion with a serpentine scan; the carried error is
    /// damped to 7/8 so flat areas do not build up noise.
    func mapDiffused(_ image: RGBAImage, palette: [RGBA], transparent: Bool) -> IndexedFrame {
        let w = image.width, h = image.height
        var cache: [UInt32: UInt8] = [:]
        let transparentIndex = transparent ? palette.count : nil
        var indices = [UInt8](repeating: 0, count: w * h)
        var current = [Int](repeating: 0, count: (w + 2) * 3)
        var next = [Int](repeating: 0, count: (w + 2) * 3)
        let p = image.pixels
        for y in 0..<h {
            let forward = y % 2 == 0
            for k in 0..<next.count { next[k] = 0 }
            for step in 0..<w {
                let x = forward ? step : w - 1 - step
                let i = y * w + x, o = i * 4, e = (x + 1) * 3
                if p[o + 3] < 128, let t = transparentIndex {
                    indices[i] = UInt8(t)
                    continue
                }
                let r = min(255, max(0, Int(p[o]) + current[e] / 16))
                let g = min(255, max(0, Int(p[o + 1]) + current[e + 1] / 16))
                let b = min(255, max(0, Int(p[o + 2]) + current[e + 2] / 16))
                let key = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
                let index: UInt8
                if let hit = cache[key] {
                    index = hit
                } else {
                    index = nearest(r, g, b, in: palette)
                    cache[key] = index
                }
                indices[i] = index
                let c = palette[Int(index)]
                let errors = [(r - Int(c.r)) * 7 / 8, (g - Int(c.g)) * 7 / 8, (b - Int(c.b)) * 7 / 8]
                let ahead = forward ? e + 3 : e - 3, behind = forward ? e - 3 : e + 3
                for ch in 0..<3 {
                    current[ahead + ch] += errors[ch] * 7
                    next[behind + ch] += errors[ch] * 3
                    next[e + ch] += errors[ch] * 5
                    next[ahead + ch] += errors[ch]
                }
            }
            swap(&current, &next)
        }
        return IndexedFrame(width: w, height: h, palette: transparent ? palette + [.clear] : palette,
                            indices: indices, transparentIndex: transparentIndex)
    }
}
