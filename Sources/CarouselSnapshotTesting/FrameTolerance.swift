/// How far a frame may stray from its reference and still match.
///
/// A pixel differs when any of its channels is more than `channel` levels from the
/// reference; the snapshot fails when more than `pixels` (a share, 0...1) of all
/// pixels differ. Rendering is deterministic, so `.exact` suits most tests; a
/// tolerance absorbs, say, a different libpng build's rounding.
public struct FrameTolerance: Equatable, Sendable {
    /// Share of pixels allowed to differ, 0...1; set outside it, a precondition failure, as
    /// in ``init(pixels:channel:)``.
    public var pixels: Double {
        didSet { FrameTolerance.check(pixels) }
    }
    /// Per-channel difference (0...255) that does not count as a difference; clamped to 0...255.
    public var channel: Int {
        didSet { channel = min(255, max(0, channel)) }
    }

    /// A tolerance of `pixels` (a share, 0...1: 0.001 lets one pixel in a thousand differ)
    /// beyond `channel` levels (clamped to 0...255).
    ///
    /// A `pixels` outside 0...1 stops the test with a precondition failure: `pixels: 10`
    /// reads as "ten pixels", yet as a share it would let every pixel differ, so the test
    /// could never fail.
    public init(pixels: Double = 0, channel: Int = 0) {
        FrameTolerance.check(pixels)
        self.pixels = pixels
        self.channel = min(255, max(0, channel))
    }

    private static func check(_ pixels: Double) {
        precondition((0...1).contains(pixels),
                     "FrameTolerance: pixels is the share of pixels that may differ, 0...1 (0.001 is one in a thousand), got \(pixels)")
    }

    /// Every pixel must match exactly.
    public static let exact = FrameTolerance()
}
