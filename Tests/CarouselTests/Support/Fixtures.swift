import Carousel

/// Small synthetic item images: each column is distinct, so any wrong column shows.
enum Fixtures {
    static func items(_ n: Int, width: Int, height: Int) -> [RGBAImage] {
        (0..<n).map { k in
            var image = RGBAImage(width: width, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    image[x, y] = RGBA(r: UInt8(30 + 50 * k), g: UInt8(x * 255 / max(1, width - 1)), b: UInt8((y * 40 + x) % 256))
                }
            }
            return image
        }
    }

    /// The periodic strip S seen from column `x0` (item j mod N at j * pitch, gaps background).
    static func periodicWindow(items: [RGBAImage], x0: Int, width: Int, height: Int, pitch: Int, background: RGBA) -> RGBAImage {
        var out = RGBAImage(width: width, height: height, fill: background)
        let n = items.count
        for x in 0..<width {
            let column = x0 + x
            let j = Int((Double(column) / Double(pitch)).rounded(.down))
            let inItem = column - j * pitch
            let item = items[((j % n) + n) % n]
            guard inItem < item.width else { continue }
            for y in 0..<height { out[x, y] = item[inItem, y] }
        }
        return out
    }

    /// A colour from a hash of `n`: neighbouring values give unrelated colours.
    static func scattered(_ n: Int) -> RGBA {
        let h = UInt32(truncatingIfNeeded: n &* 2_654_435_761)
        return RGBA(r: UInt8(truncatingIfNeeded: h >> 8), g: UInt8(truncatingIfNeeded: h >> 16),
                    b: UInt8(truncatingIfNeeded: h >> 24))
    }

    /// Three 64-pixel-wide items: the left half of item k shows `still(k, y)` on row y (what a
    /// move leaves alone while the item slides), the right half a different colour every pixel.
    static func halfStillItems(height: Int, still: (Int, Int) -> RGBA) -> [RGBAImage] {
        (0..<3).map { k in
            var image = RGBAImage(width: 64, height: height)
            for y in 0..<height {
                for x in 0..<64 { image[x, y] = x < 32 ? still(k, y) : scattered(1000 + (k * height + y) * 64 + x) }
            }
            return image
        }
    }

    /// Options for short renders: 20 fps, holds of 0.2 s, moves of `duration`, no dots.
    static func shortMoves(duration: MediaTime) -> CarouselOptions {
        var options = CarouselOptions()
        options.fps = 20
        options.hold = 0.2
        options.duration = duration
        options.dots.placement = .none
        return options
    }
}
