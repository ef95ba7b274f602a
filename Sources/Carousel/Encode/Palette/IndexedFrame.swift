/// A frame after quantization: a palette and one palette index per pixel.
public struct IndexedFrame: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The colours, at most 256; entries are opaque except `transparentIndex`.
    public let palette: [RGBA]
    /// One index into `palette` per pixel, row after row.
    public let indices: [UInt8]
    /// The palette index that stands for transparent pixels, if any.
    public let transparentIndex: Int?

    /// The image these indices and palette describe (transparent pixels as `.clear`).
    public func expanded() -> RGBAImage {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for (i, index) in indices.enumerated() where Int(index) != transparentIndex {
            let c = palette[Int(index)]
            out[i * 4] = c.r
            out[i * 4 + 1] = c.g
            out[i * 4 + 2] = c.b
            out[i * 4 + 3] = 255
        }
        return RGBAImage(width: width, height: height, pixels: out)
    }
}
