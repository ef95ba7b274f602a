/// How much each channel counts in the squared distance between two colours, which
/// decides a palette (median cut, k-means) and the nearest entry to a colour.
public struct ChannelWeights: Sendable, Equatable {
    /// Weight of red.
    public let r: Int32
    /// Weight of green.
    public let g: Int32
    /// Weight of blue.
    public let b: Int32

    /// Weights from 1 to 16 each (the distance of two colours stays well inside `Int32`).
    public init(r: Int32, g: Int32, b: Int32) {
        self.r = min(16, max(1, r))
        self.g = min(16, max(1, g))
        self.b = min(16, max(1, b))
    }

    /// Every channel alike: the compact encoding (`--dither none`), whose benchmark is PSNR.
    public static let rgb = ChannelWeights(r: 1, g: 1, b: 1)

    /// Green most, then red, then blue, as the eye tells colours apart: the dithered
    /// encodings. Measured with `bench/quality-probe.py` against plain RGB (SSIMULACRA2
    /// means, sample banners / photos / gradients): 1:1:1 gave 87.37 / 77.85 / 78.84;
    /// 2:4:3 87.71 / 78.42 / 79.46; 3:4:2 87.69 / 78.90 / 79.98; 3:6:2 87.93 / 78.93 /
    /// 80.44; 3:6:1 87.90 / 78.40 / 80.19; 2:5:2 87.95 / 78.92 / 80.38; 4:8:3 87.72 /
    /// 79.11 / 80.48.
    public static let perceptual = ChannelWeights(r: 4, g: 8, b: 3)

    /// The weighted squared distance of two colours given as channel differences.
    @inline(__always)
    func distance(_ dr: Int32, _ dg: Int32, _ db: Int32) -> Int32 {
        r &* dr &* dr &+ g &* dg &* dg &+ b &* db &* db
    }

    /// The weighted squared distance of two points (red, green, blue; or Oklab's axes, with
    /// ``rgb``'s weights of one).
    @inline(__always)
    func distance(_ a: (Int32, Int32, Int32), _ b: (Int32, Int32, Int32)) -> Int32 {
        distance(a.0 &- b.0, a.1 &- b.1, a.2 &- b.2)
    }
}
