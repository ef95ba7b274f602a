/// The script expanded into timed segments, and the state of every frame (spec section 3).
///
/// Positions are in pages. Each segment starts from a real page in `0..<N`, so
/// error never accumulates over loops; a move may end on a clone (`-1` or `N`),
/// and the following hold settles there for one frame before the jump to the
/// real page, as a scroll view shows the clone until its delegate calls
/// `setContentOffset(_:animated: false)`.
public struct Timeline: Equatable, Sendable {
    /// One timed piece of the timeline: a hold (`by == 0`) or a move.
    public struct Segment: Equatable, Sendable {
        /// Start time in microseconds.
        public let start: Int
        /// Length in microseconds.
        public let duration: Int
        /// The real page it starts from, `0..<N`.
        public let from: Int
        /// Pages moved: 0 for a hold, +1 for `next`, -1 for `prev`, any for `goto`.
        public let by: Int
        /// The curve of the move.
        public let easing: Easing
        /// Where a hold is entered before the jump (a clone position), else `from`.
        public let entry: Int
    }

    /// The longest timeline accepted, in microseconds (one hour).
    public static let maximumDuration = 3_600_000_000

    /// Number of real pages N.
    public let count: Int
    /// The segments in time order.
    public let segments: [Segment]

    /// Total length in microseconds.
    public var duration: Int { segments.last.map { $0.start + $0.duration } ?? 0 }

    /// Expands `script` for `count` pages with the given defaults (microseconds and easing).
    ///
    /// With one page nothing can move: every move becomes a hold of its length.
    public init(script: Script, count: Int, hold: Int, moveDuration: Int, easing: Easing) throws(CarouselError) {
        self.count = count
        var segments: [Segment] = []
        var time = 0
        var page = 0
        var entry = 0
        func add(_ duration: Int, by: Int, easing: Easing) {
            let moving = count > 1 ? by : 0
            segments.append(Segment(start: time, duration: duration, from: page, by: moving, easing: easing,
                                    entry: moving == 0 ? entry : page))
            time += duration
            let end = page + moving
            if moving != 0 { entry = end }
            page = ((end % count) + count) % count
            if moving == 0 { entry = page }
        }
        for item in script.entries {
            switch item.step {
            case .hold(let us):
                add(us, by: 0, easing: easing)
            case let .next(d, e):
                add(d ?? moveDuration, by: 1, easing: e ?? easing)
            case let .prev(d, e):
                add(d ?? moveDuration, by: -1, easing: e ?? easing)
            case let .goto(target, d, e):
                guard target <= count else {
                    throw .script(source: script.source, step: item.number, line: item.line, text: item.text,
                                  reason: "page \(target) does not exist; expected 1...\(count)")
                }
                let forward = ((target - 1 - page) % count + count) % count
                let by = forward <= count - forward ? forward : forward - count
                add(d ?? moveDuration, by: by, easing: e ?? easing)
            case .autoplay(let cycles):
                guard cycles <= Timeline.maximumDuration / max(1, (hold + moveDuration) * count) else {
                    throw .script(source: script.source, step: item.number, line: item.line, text: item.text,
                                  reason: "\(cycles) cycles last longer than the limit of one hour")
                }
                for _ in 0..<(cycles * count) {
                    add(hold, by: 0, easing: easing)
                    add(moveDuration, by: 1, easing: easing)
                }
            }
            guard time <= Timeline.maximumDuration else {
                throw .script(source: script.source, step: item.number, line: item.line, text: item.text,
                              reason: "the timeline would last over the limit of one hour")
            }
        }
        self.segments = segments
    }

    /// Number of frames at `fps`: `round(T * fps)`, half up.
    public func frameCount(fps: Int) -> Int {
        (duration * fps + 500_000) / 1_000_000
    }

    /// The state of every frame at `fps`.
    public func frames(fps: Int) -> [FrameState] {
        var states: [FrameState] = []
        let total = frameCount(fps: fps)
        states.reserveCapacity(total)
        var k = 0
        for i in 0..<total {
            let scaledTime = i * 1_000_000  // frame time * fps, in µs
            while k + 1 < segments.count, scaledTime >= (segments[k].start + segments[k].duration) * fps {
                k += 1
            }
            states.append(state(frame: i, fps: fps, segment: k))
        }
        return states
    }

    private func state(frame i: Int, fps: Int, segment k: Int) -> FrameState {
        let s = segments[k]
        let target = ((s.from + s.by) % count + count) % count
        let time = Double(i) / Double(fps)
        if s.by == 0 {
            let firstFrame = (s.start * fps + 999_999) / 1_000_000
            let settling = i == firstFrame && s.entry != s.from
            return FrameState(index: i, time: time, position: Double(settling ? s.entry : s.from),
                              from: s.from, to: s.from, moving: false, jumped: i == firstFrame + 1 && s.entry != s.from,
                              segment: k)
        }
        let u = min(1, Double(i * 1_000_000 - s.start * fps) / Double(s.duration * fps))
        let progress = s.easing.value(at: u, duration: Double(s.duration) / 1_000_000)
        return FrameState(index: i, time: time, position: Double(s.from) + Double(s.by) * progress,
                          from: s.from, to: target, moving: true, jumped: false, segment: k)
    }
}

/// What the timeline says about one frame.
public struct FrameState: Equatable, Sendable {
    /// Frame index i.
    public let index: Int
    /// Time `i / fps` in seconds.
    public let time: Double
    /// Position p in pages; in `-1...N` for one-page moves, a clone when outside `0..<N`.
    public let position: Double
    /// The real page the current segment starts from.
    public let from: Int
    /// The real page the current segment ends on.
    public let to: Int
    /// Whether a move is under way.
    public let moving: Bool
    /// Whether this frame comes right after a jump from a clone to its real page.
    public let jumped: Bool
    /// Index of the timeline segment the frame falls in.
    public let segment: Int

    /// Creates a frame state (the timeline makes these; tests and custom renderers may too).
    public init(index: Int, time: Double, position: Double, from: Int, to: Int, moving: Bool, jumped: Bool, segment: Int = 0) {
        self.index = index
        self.time = time
        self.position = position
        self.from = from
        self.to = to
        self.moving = moving
        self.jumped = jumped
        self.segment = segment
    }
}
