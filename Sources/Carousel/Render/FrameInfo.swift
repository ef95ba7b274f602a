/// One frame as `frames.json` describes it.
public struct FrameInfo: Equatable, Sendable, Codable {
    /// Frame index i.
    public let index: Int
    /// Time `i / fps` in seconds.
    public let time: Double
    /// Delay in centiseconds before the next frame (before merging).
    public let delay: Int
    /// Offset in the periodic strip, `round(p * pitch) - a`.
    public let x0: Int
    /// Column of the padded strip (as `carousel strip` writes it) at the viewport's left edge.
    public let stripX: Int
    /// Position p in pages, as the timeline has it: a move, a drag or a settle may carry it
    /// past the pages (to -1 or N, a clone, at the end of a move; further in a long `goto` or
    /// a drag), and it is brought back into `0 ..< N` from the frame after the one where the
    /// carousel came to rest. ``page`` is always one of the pages.
    public let position: Double
    /// Lit page, 0-based.
    public let page: Int
    /// What is happening: hold, move, drag or settle.
    public let phase: Phase
    /// The touch indicator's centre and opacity, or `nil` when none is drawn.
    public let touch: TouchPoint?

    private enum CodingKeys: String, CodingKey {
        case index, time, delay, x0, stripX, position, page, phase, touch
    }

    /// Encodes every key as `frames.json` writes it, `touch` as `null` when no indicator is
    /// drawn (the synthesized encoding left the key out).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(time, forKey: .time)
        try container.encode(delay, forKey: .delay)
        try container.encode(x0, forKey: .x0)
        try container.encode(stripX, forKey: .stripX)
        try container.encode(position, forKey: .position)
        try container.encode(page, forKey: .page)
        try container.encode(phase, forKey: .phase)
        try container.encode(touch, forKey: .touch)
    }

    /// The spec's delay of frame `i`: `round(100 (i+1) / fps) - round(100 i / fps)`, half up.
    /// `fps` is 1...50 and `i` at least 0 (and below 2^52, where the sums would overflow);
    /// other values trap.
    public static func delay(frame i: Int, fps: Int) -> Int {
        precondition(CarouselOptions.fpsRange.contains(fps) && (0..<1 << 52).contains(i),
                     "FrameInfo.delay: frame \(i) at \(fps) fps; fps is \(CarouselOptions.fpsText) and a frame 0 ..< 2^52")
        func centiseconds(_ k: Int) -> Int { (200 * k + fps) / (2 * fps) }
        return centiseconds(i + 1) - centiseconds(i)
    }
}
