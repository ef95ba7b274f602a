/// The padded strip the renderer samples: clones, the real items, clones, each item followed by its gap.
///
/// Column `c` of the strip shows column `c - leftClones * pitch` of the periodic strip.
public enum PaddedStrip {
    /// Builds the strip from items already fitted to `itemWidth x H`.
    public static func build(items: [RGBAImage], geometry g: Geometry, background: RGBA) -> RGBAImage {
        var strip = RGBAImage(width: g.stripWidth, height: g.height, fill: background)
        for j in -g.leftClones..<(g.count + g.rightClones) {
            let item = items[((j % g.count) + g.count) % g.count]
            strip.paste(item, x: (j + g.leftClones) * g.pitch, y: 0)
        }
        return strip
    }
}
