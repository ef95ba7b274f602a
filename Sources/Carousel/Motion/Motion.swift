/// What the carousel does during one timeline segment, as a function of time.
///
/// Positions are in pages (real-valued; outside `0..<N` on a clone). Each case
/// answers ``position(at:length:)`` and ``velocity(at:length:)`` for a time
/// `elapsed` since the segment began; a new kind of motion is a new case here.
public enum Motion: Equatable, Sendable {
    /// Resting on real page `page`, `0..<N`, finger up. The first frame of the rest shows
    /// `entry` (the clone a move or settle landed on) when it differs from `page`; then
    /// the view jumps to the real page, as a scroll view does with a non-animated
    /// `setContentOffset` (for a gesture: in `scrollViewDidEndDecelerating`).
    case hold(page: Int, entry: Int)
    /// Moving from real page `from` by `by` pages along `easing` (a timer's `next`, `prev`, `goto`).
    case move(from: Int, by: Int, easing: Easing)
    /// The finger dragging the content from position `from` by `by` pages, its path eased by `easing`.
    case drag(from: Double, by: Double, easing: Easing)
    /// The finger down and still, the content at position `at`.
    case rest(at: Double)
    /// After the finger lifts: from position `from` by `by` pages to a whole page, along the
    /// cubic ease-out `1 - (1 - u)^3` (spec section 3b).
    case settle(from: Double, by: Double)

    /// The position at the start.
    public var start: Double {
        switch self {
        case .hold(let page, _): return Double(page)
        case .move(let from, _, _): return Double(from)
        case .drag(let from, _, _), .settle(let from, _): return from
        case .rest(let at): return at
        }
    }

    /// Whether the motion changes the position.
    public var isMoving: Bool {
        switch self {
        case .hold, .rest: return false
        case .move(_, let by, _): return by != 0
        case .drag(_, let by, _), .settle(_, let by): return by != 0
        }
    }

    /// Whether the finger is on the screen.
    public var isFingerDown: Bool {
        switch self {
        case .drag, .rest: return true
        case .hold, .move, .settle: return false
        }
    }

    /// The position `elapsed` into a segment of `length`.
    public func position(at elapsed: MediaTime, length: MediaTime) -> Double {
        position(progress: Double(elapsed.microseconds) / Double(max(1, length.microseconds)), length: length)
    }

    /// The position at `progress` (0...1) of a segment of `length`.
    func position(progress u: Double, length: MediaTime) -> Double {
        switch self {
        case .hold(let page, _):
            return Double(page)
        case .rest(let at):
            return at
        case let .move(from, by, easing):
            return Double(from) + Double(by) * easing.value(at: min(1, u), duration: length.seconds)
        case let .drag(from, by, easing):
            return from + by * easing.value(at: min(1, u), duration: length.seconds)
        case let .settle(from, by):
            let rest = 1 - min(1, max(0, u))
            return from + by * (1 - rest * rest * rest)
        }
    }

    /// The velocity in pages per second `elapsed` into a segment of `length` (0 for a segment of no length).
    public func velocity(at elapsed: MediaTime, length: MediaTime) -> Double {
        guard length.microseconds > 0 else { return 0 }
        let u = Double(elapsed.microseconds) / Double(length.microseconds)
        switch self {
        case .hold, .rest:
            return 0
        case let .move(_, by, easing):
            return Double(by) * easing.slope(at: u, duration: length.seconds) / length.seconds
        case let .drag(_, by, easing):
            return by * easing.slope(at: u, duration: length.seconds) / length.seconds
        case let .settle(_, by):
            let rest = 1 - min(1, max(0, u))
            return by * 3 * rest * rest / length.seconds
        }
    }

    /// What `frames.json` calls this motion.
    public var phase: Phase {
        switch self {
        case .hold: return .hold
        case .move: return .move
        case .drag, .rest: return .drag
        case .settle: return .settle
        }
    }
}

/// What a frame shows happening, as `frames.json` names it.
public enum Phase: String, Sendable, Hashable, Codable, CaseIterable {
    /// At rest, finger up.
    case hold
    /// A timer's move (`next`, `prev`, `goto`, autoplay).
    case move
    /// The finger down, moving or still.
    case drag
    /// Settling on a page after the finger lifted.
    case settle
}
