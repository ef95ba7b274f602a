/// How far a frame may stray from its reference and still match.
///
/// A pixel differs when any of its channels is more than `channel` levels from the
/// reference; the snapshot fails when more than `pixels` (a share, 0...1) of all
/// pixels differ. Rendering is deterministic, so `.exact` suits most tests; a
/// tolerance absorbs, say, a different libpng build's rounding.
public struct FrameTolerance: Equatable, Sendable {
    /// Share of pixels allowed to differ, 0...1.
    public var pixels: Double
    /// Per-channel difference (0...255) that does not count as a difference.
    public var channel: Int

    /// A tolerance of `pixels` (share) beyond `channel` levels.
    public init(pixels: Double = 0, channel: Int = 0) {
        self.pixels = min(1, max(0, pixels))
        self.channel = min(255, max(0, channel))
    }

    /// Every pixel must match exactly.
    public static let exact = FrameTolerance()
}
