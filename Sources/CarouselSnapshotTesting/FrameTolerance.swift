/// How far a frame may stray from its reference and still match.
///
/// A pixel differs when any of its channels is more than `channel` levels from the
/// reference; the snapshot fails when more than `pixels` (a share, 0...1) of all
/// pixels differ. Rendering is deterministic, so `.exact` suits most tests; a
/// tolerance absorbs, say, a different libpng build's rounding.
public struct FrameTolerance: Equatable, Sendable {
    /// Share of pixels allowed to differ, 0...1; outside it, every comparison under this
    /// tolerance fails, saying so (``init(pixels:channel:)``).
    public var pixels: Double
    /// Per-channel difference (0...255) that does not count as a difference; clamped to 0...255.
    public var channel: Int {
        didSet { channel = min(255, max(0, channel)) }
    }

    /// A tolerance of `pixels` (a share, 0...1: 0.001 lets one pixel in a thousand differ)
    /// beyond `channel` levels (clamped to 0...255).
    ///
    /// A `pixels` outside 0...1 fails every comparison made under the tolerance, with a
    /// message saying why: `pixels: 10` reads as "ten pixels", yet as a share it would let
    /// every pixel differ, so the test could never fail. (It is not a precondition: that
    /// would end the whole test run, every test still running with it, without a report.)
    public init(pixels: Double = 0, channel: Int = 0) {
        self.pixels = pixels
        self.channel = min(255, max(0, channel))
    }

    /// Why comparisons under this tolerance cannot be made, or nil.
    var problem: String? {
        (0...1).contains(pixels) ? nil
            : "FrameTolerance: pixels is the share of pixels that may differ, 0...1 (0.001 is one in a thousand), got \(pixels)"
    }

    /// Every pixel must match exactly.
    public static let exact = FrameTolerance()
}
