/// What the carousel does during one timeline segment, as a function of time.
///
/// Positions are in pages (real-valued; outside `0..<N` on a clone). Each case
/// answers ``position(at:length:)`` and ``velocity(at:length:)`` for a time
/// `elapsed` since the segment began; a new kind of motion is a new case here.
public enum Motion: Equatable, Sendable {
    /// Resting on real page `page`, `0..<N`. The first frame of the rest shows `entry`
    /// (the clone a move landed on) when it differs from `page`; then the view jumps
    /// to the real page, as a scroll view does with a non-animated `setContentOffset`.
    case hold(page: Int, entry: Int)
    /// Moving from real page `from` by `by` pages along `easing`.
    case move(from: Int, by: Int, easing: Easing)

    /// The page the motion starts from, `0..<N`.
    public var from: Int {
        switch self {
        case .hold(let page, _): return page
        case .move(let from, _, _): return from
        }
    }

    /// Pages travelled by the end of the motion.
    public var distance: Int {
        switch self {
        case .hold: return 0
        case .move(_, let by, _): return by
        }
    }

    /// Whether the motion changes the position.
    public var isMoving: Bool { distance != 0 }

    /// The position `elapsed` into a segment of `length`.
    public func position(at elapsed: MediaTime, length: MediaTime) -> Double {
        position(progress: Double(elapsed.microseconds) / Double(max(1, length.microseconds)), length: length)
    }

    /// The position at `progress` (0...1) of a segment of `length`.
    func position(progress u: Double, length: MediaTime) -> Double {
        switch self {
        case .hold(let page, _):
            return Double(page)
        case let .move(from, by, easing):
            return Double(from) + Double(by) * easing.value(at: min(1, u), duration: length.seconds)
        }
    }

    /// The velocity in pages per second `elapsed` into a segment of `length`.
    public func velocity(at elapsed: MediaTime, length: MediaTime) -> Double {
        switch self {
        case .hold:
            return 0
        case let .move(_, by, easing):
            guard length.microseconds > 0 else { return 0 }
            let u = Double(elapsed.microseconds) / Double(length.microseconds)
            return Double(by) * easing.slope(at: u, duration: length.seconds) / length.seconds
        }
    }
}
