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
}
