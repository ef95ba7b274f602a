/// The padded strip the renderer samples: clones, the real items, clones, each item followed by its gap.
///
/// Column `c` of the strip shows column `c - leftClones * pitch` of the periodic strip.
public enum PaddedStrip {
    /// Builds the strip from items already fitted to `itemWidth x H`.
    ///
    /// - Precondition: `items` holds one item for each of the geometry's pages
    ///   (`items.count == geometry.count`).
    ///
    /// Rows are written in bands on all cores, each row once: the background, then every
    /// item's row over it (the strip is tens of megabytes at retina sizes, and the first
    /// touch of its memory costs as much as the writing).
    public static func build(items: [RGBAImage], geometry g: Geometry, background: RGBA) -> RGBAImage {
        precondition(items.count == g.count, "PaddedStrip.build: \(items.count) items for a geometry of \(g.count)")
        let width = g.stripWidth, height = g.height
        // Each item's place in the strip, its part inside the strip (by column) and its source.
        let places: [(x0: Int, x1: Int, offset: Int, item: RGBAImage)] = (-g.leftClones..<(g.count + g.rightClones))
            .compactMap { j in
                let item = items[((j % g.count) + g.count) % g.count]
                let x = (j + g.leftClones) * g.pitch
                let x0 = max(0, x), x1 = min(width, x + item.width)
                return x0 < x1 ? (x0, x1, x0 - x, item) : nil
            }
        let pixels = [UInt8].parallelRows(height, rowBytes: width * 4) { rows, start in
            for y in rows {
                let row = start + y * width * 4
                RGBAImage.fill(row, pixels: width, with: background)
                for place in places where y < place.item.height {
                    place.item.pixels.withUnsafeBytes { source in
                        (row + place.x0 * 4).copyMemory(from: source.baseAddress! + (y * place.item.width + place.offset) * 4,
                                                        byteCount: (place.x1 - place.x0) * 4)
                    }
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
