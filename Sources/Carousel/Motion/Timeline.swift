/// The script expanded into timed segments of ``Motion``, and the state of every frame (spec section 3).
///
/// Each segment starts from a real page in `0..<N`, so error never accumulates over
/// loops; a move may end on a clone (`-1` or `N`), and the rest that follows shows
/// the clone for one frame before the jump to the real page.
public struct Timeline: Equatable, Sendable {
    /// One timed piece of the timeline.
    public struct Segment: Equatable, Sendable {
        /// When it starts.
        public let start: MediaTime
        /// How long it lasts.
        public let length: MediaTime
        /// What happens meanwhile.
        public let motion: Motion

        /// When it ends.
        public var end: MediaTime { start + length }
    }

    /// Number of real pages N.
    public let count: Int
    /// The segments in time order.
    public let segments: [Segment]

    /// Total length.
    public var length: MediaTime { segments.last?.end ?? .zero }

    /// Expands `script` for `count` pages, with `hold`, `moveDuration` and `easing` for what a step leaves out.
    ///
    /// With one page nothing can move: every move becomes a hold of its length. A
    /// timeline longer than ``MediaTime/maximum`` (one hour) is refused before it is
    /// expanded, and so is an `autoplay` whose cycle lasts no time.
    public init(script: Script, count: Int, hold: MediaTime, moveDuration: MediaTime, easing: Easing) throws(CarouselError) {
        self.count = count
        var segments: [Segment] = []
        var time = 0
        var page = 0
        var entry = 0
        func add(_ length: MediaTime, by: Int, easing: Easing) {
            let moving = count > 1 ? by : 0
            let motion: Motion = moving == 0 ? .hold(page: page, entry: entry) : .move(from: page, by: moving, easing: easing)
            segments.append(Segment(start: MediaTime(microseconds: time), length: length, motion: motion))
            time += length.microseconds
            let end = page + moving
            if moving != 0 { entry = end }
            page = ((end % count) + count) % count
            if moving == 0 { entry = page }
        }
        for item in script.entries {
            func fail(_ reason: String) -> CarouselError {
                .script(source: script.source, step: item.number, line: item.line, text: item.text, reason: reason)
            }
            switch item.step {
            case .hold(let length):
                add(length, by: 0, easing: easing)
            case let .next(d, e):
                add(d ?? moveDuration, by: 1, easing: e ?? easing)
            case let .prev(d, e):
                add(d ?? moveDuration, by: -1, easing: e ?? easing)
            case let .goto(target, d, e):
                guard (1...count).contains(target) else { throw fail("page \(target) does not exist; expected 1...\(count)") }
                let forward = ((target - 1 - page) % count + count) % count
                let by = forward <= count - forward ? forward : forward - count
                add(d ?? moveDuration, by: by, easing: e ?? easing)
            case .autoplay(let cycles):
                let cycle = hold.microseconds + moveDuration.microseconds
                guard cycle > 0 else {
                    throw .invalidOption(key: .hold, reason: "is 0 s and so is duration, so \"\(item.text)\" (step \(item.number) of \(script.source)) would last no time")
                }
                let (pages, overflow) = cycles.multipliedReportingOverflow(by: count)
                guard !overflow, pages <= (MediaTime.maximum.microseconds - time) / cycle else {
                    throw fail("\(cycles) cycles last longer than the limit of one hour")
                }
                for _ in 0..<pages {
                    add(hold, by: 0, easing: easing)
                    add(moveDuration, by: 1, easing: easing)
                }
            }
            guard time <= MediaTime.maximum.microseconds else { throw fail("the timeline would last over the limit of one hour") }
        }
        self.segments = segments
    }

    /// Number of frames at `fps`: `round(T * fps)`, half up.
    public func frameCount(fps: Int) -> Int {
        (length.microseconds * fps + 500_000) / 1_000_000
    }

    /// The index of the frame shown at `time` at `fps`: `floor(time * fps)`, exactly.
    public func frameIndex(at time: MediaTime, fps: Int) throws(CarouselError) -> Int {
        let count = frameCount(fps: fps)
        guard time >= .zero, time < length || (count == 1 && time == .zero) else {
            throw .timeOutsideTimeline(time, length: length)
        }
        return min(count - 1, time.microseconds * fps / 1_000_000)
    }

    /// The state of every frame at `fps`.
    public func frames(fps: Int) -> [FrameState] {
        var states: [FrameState] = []
        let total = frameCount(fps: fps)
        states.reserveCapacity(total)
        var k = 0
        for i in 0..<total {
            let scaledTime = i * 1_000_000  // frame time * fps, in µs
            while k + 1 < segments.count, scaledTime >= segments[k].end.microseconds * fps {
                k += 1
            }
            states.append(state(frame: i, fps: fps, segment: k))
        }
        return states
    }

    private func state(frame i: Int, fps: Int, segment k: Int) -> FrameState {
        let s = segments[k]
        let from = s.motion.from
        let target = ((from + s.motion.distance) % count + count) % count
        switch s.motion {
        case .hold(let page, let entry):
            let firstFrame = (s.start.microseconds * fps + 999_999) / 1_000_000
            let settling = i == firstFrame && entry != page
            return FrameState(index: i, position: Double(settling ? entry : page), from: page, to: page,
                              moving: false, jumped: i == firstFrame + 1 && entry != page, segment: k)
        case .move:
            let u = min(1, Double(i * 1_000_000 - s.start.microseconds * fps) / Double(s.length.microseconds * fps))
            return FrameState(index: i, position: s.motion.position(progress: u, length: s.length),
                              from: from, to: target, moving: true, jumped: false, segment: k)
        }
    }
}

/// What the timeline says about one frame.
public struct FrameState: Equatable, Sendable {
    /// Frame index i; the frame is shown from `i / fps` seconds.
    public let index: Int
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
    public init(index: Int, position: Double, from: Int, to: Int, moving: Bool, jumped: Bool, segment: Int = 0) {
        self.index = index
        self.position = position
        self.from = from
        self.to = to
        self.moving = moving
        self.jumped = jumped
        self.segment = segment
    }
}
