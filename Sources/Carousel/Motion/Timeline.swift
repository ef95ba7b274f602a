/// The script expanded into timed segments of ``Motion``, and the state of every frame
/// (spec sections 3 and 3b).
///
/// A timer's segments start from a real page in `0..<N`, so error never accumulates
/// over loops; a move or a settle may end on a clone (any page outside `0..<N`), and
/// the rest that follows shows the clone for one frame before the jump to the real page.
/// A gesture runs from wherever the finger went down, any distance, through the clones.
public struct Timeline: Equatable, Sendable {
    /// One timed piece of the timeline.
    public struct Segment: Equatable, Sendable {
        /// When it starts.
        public let start: MediaTime
        /// How long it lasts.
        public let length: MediaTime
        /// What happens meanwhile.
        public let motion: Motion
        /// The real page the segment starts from (the page where a gesture began, for its drags and settle).
        public let fromPage: Int
        /// The real page it ends on (a gesture's target from its release on).
        public let toPage: Int
        /// The finger while it is down: its offset in pixels from the viewport's centre.
        public let finger: FingerPath?
        /// The content's offset, `p * pitch`, in whole numbers where the motion is linear in
        /// time (a move or a drag along `linear`, the finger resting), or at the start of a
        /// settle or an eased drag, which begins where a gesture's exact offset is; nil elsewhere.
        let linear: LinearOffset?

        /// When it ends.
        public var end: MediaTime { start + length }
    }

    /// A content offset linear in a segment's progress u: `start + by * u` millionths of a
    /// pixel (``TimelineBuilder/microPixels``).
    ///
    /// Worked out in whole numbers, so an offset exactly half way between two pixels rounds
    /// up (spec section 2). In floating point, `p * pitch` can come out just below the half:
    /// a linear move's 0.58 pages of 25 pixels gave 14.499999999999998, x0 14 for 15, and a
    /// drag of 7 pixels 3/14 of the way 1.4999999999999998.
    struct LinearOffset: Equatable, Sendable {
        let start: Int
        let by: Int
        /// Whether the motion is linear throughout; otherwise (a settle's curve, an eased drag)
        /// only its start, `u = 0`, is exact: without it a settle's first frame, at the release
        /// position, could round a half pixel down where the drag's last had rounded it up.
        let throughout: Bool

        /// Millionths of a pixel in a pixel.
        static let unit = 1_000_000

        /// `start + by * u` in millionths of a pixel, or nil where it does not fit in `Int`
        /// (`page` pages of `pitch` pixels at the farthest a geometry allows).
        init?(page: Int, pitch: Int, travelled: Int = 0, by: Int, throughout: Bool = true) {
            let (pageStart, o1) = page.multipliedReportingOverflow(by: pitch)
            let (micro, o2) = pageStart.multipliedReportingOverflow(by: Self.unit)
            let (start, o3) = micro.subtractingReportingOverflow(travelled)
            guard !o1, !o2, !o3 else { return nil }
            self.start = start
            self.by = by
            self.throughout = throughout
        }

        /// The offset at progress `num / den` (`0 <= num <= den`, `den > 0`) in whole pixels,
        /// rounded half up, or nil where it does not fit in `Int` or the motion is not linear
        /// there.
        func pixels(_ num: Int, over den: Int) -> Int? {
            guard throughout || num == 0 else { return nil }
            // by * num / den, floored: its size is at most |by|.
            var (q, r) = den.dividingFullWidth(by.multipliedFullWidth(by: num))
            if r < 0 { q -= 1 }
            // The fraction left, below one millionth, cannot carry the sum past a whole pixel.
            let (sum, o1) = start.addingReportingOverflow(q)
            let (half, o2) = sum.addingReportingOverflow(Self.unit / 2)
            guard !o1, !o2 else { return nil }
            return floorDiv(half, Self.unit)
        }
    }

    /// Where the finger is during a segment: offsets in pixels from the viewport's centre.
    public enum FingerPath: Equatable, Sendable {
        /// Still at `offset`.
        case still(Double)
        /// From `offset` by `dx` pixels along `easing`.
        case moving(from: Double, by: Double, easing: Easing)
    }

    /// A finger lifting: when, and where (offset from the viewport's centre).
    public struct Release: Equatable, Sendable {
        /// When the finger lifts.
        public let time: MediaTime
        /// Its offset in pixels from the viewport's centre.
        public let offset: Double
    }

    /// How long the touch indicator takes to fade after the finger lifts.
    public static let touchFade = MediaTime(microseconds: 150_000)
    /// The default duration of `swipe`.
    public static let swipeDuration = MediaTime(microseconds: 150_000)

    /// The most segments (holds, moves, drags, settles) a timeline may have once `autoplay` is
    /// expanded, over five times the 180,000 frames of an hour at 50 fps. A script of 1 MiB writes at most
    /// a few hundred thousand; an `autoplay` of many cycles with a hold and a duration of a
    /// microsecond or two fits in the hour with billions, which would not fit in memory.
    public static let maximumSegments = 1_000_000

    /// Number of real pages N.
    public let count: Int
    /// The segments in time order.
    public let segments: [Segment]
    /// Every release of the finger, in time order.
    public let releases: [Release]

    /// Total length.
    public var length: MediaTime { segments.last?.end ?? .zero }

    /// Expands `script` for `count` pages of `pitch` pixels, with `hold`, `moveDuration` and
    /// `easing` for what a step leaves out.
    ///
    /// With one page nothing can move: every move becomes a hold of its length, and drags
    /// move the finger only. A timeline longer than ``MediaTime/maximum`` (one hour) is
    /// refused before it is expanded, and so is an `autoplay` whose cycle lasts no time. No
    /// pages throws ``CarouselError/noImages``; more than ``Geometry/maximumCount`` pages, or
    /// a pitch outside 1 ... that, traps.
    ///
    /// `written` is false where `script` stands in for a script nobody gave (the default
    /// `autoplay 1`): an autoplay past the hour is then the hold's error, not the step's.
    public init(script: Script, count: Int, pitch: Int, hold: MediaTime, moveDuration: MediaTime,
                easing: Easing, written: Bool = true) throws(CarouselError) {
        // Values made in Swift, checked as the option table checks them.
        for (key, time) in [(OptionKey.hold, hold), (.duration, moveDuration)] {
            if let reason = time.durationRefusal { throw .invalidOption(key: key, reason: reason) }
        }
        if let reason = easing.refusal { throw .invalidOption(key: .easing, reason: reason) }
        guard count >= 1 else { throw .noImages }
        precondition(count <= Geometry.maximumCount && (1...Geometry.maximumCount).contains(pitch),
                     "Timeline: \(count) pages of \(pitch) px; 1 ... \(Geometry.maximumCount) each (a Geometry's count and pitch)")
        guard !script.entries.isEmpty else { throw Script.noSteps(script.source) }
        var builder = TimelineBuilder(count: count, pitch: pitch, hold: hold, moveDuration: moveDuration,
                                      easing: easing, source: script.source, written: written)
        for (k, item) in script.entries.enumerated() {
            try builder.add(item, remaining: script.entries[(k + 1)...])
        }
        if let last = script.entries.last, builder.isFingerDown {
            throw .script(source: script.source, step: last.number, line: last.line, text: last.text,
                          reason: "the script ends with the finger down; end it with \"release\"")
        }
        self.count = count
        segments = builder.segments
        releases = builder.releases
    }

    /// Number of frames at `fps`: `round(T * fps)`, half up. `fps` outside
    /// ``CarouselOptions/fpsRange`` (1...50) traps, here and in ``frames(fps:)`` and
    /// ``frameIndex(at:fps:)``: ``CarouselOptions/validate()`` refuses it as an error.
    public func frameCount(fps: Int) -> Int {
        precondition(CarouselOptions.fpsRange.contains(fps), "Timeline: fps must be \(CarouselOptions.fpsText), got \(fps)")
        return (length.microseconds * fps + 500_000) / 1_000_000
    }

    /// The index of the frame shown at `time` at `fps`. Frame i shows from `i / fps`, to the
    /// microsecond as every time is: from `round(i * 1_000_000 / fps)` µs (half up). That is
    /// `floor(time * fps)` wherever `1 / fps` is a whole number of microseconds (1, 2, 4, 5, 8,
    /// 10, 16, 20, 25, 32, 40 and 50 fps); at other rates it puts a frame that starts between two
    /// microseconds at the nearer one, so the time `frames.json` gives frame i, `i / fps` read
    /// back to the microsecond, is frame i's at every rate (at 7 fps frame 10 starts at
    /// 1.4285714… s, read as 1,428,571 µs, where `floor` gave frame 9).
    ///
    /// Times from 0 up to the later of the script's end and the last frame's end
    /// (``shownLength(fps:)``) have a frame: `hold 1.6` at 1 fps makes two frames, and the
    /// second is shown until 2 s, as a player shows it; `next 1.4` at 1 fps makes one, shown
    /// at any time of the script. Other times throw ``CarouselError/timeOutsideTimeline(_:length:)``
    /// with that bound.
    public func frameIndex(at time: MediaTime, fps: Int) throws(CarouselError) -> Int {
        let count = frameCount(fps: fps)
        let end = shownLength(fps: fps)
        // A timeline shorter than half a frame has none (a `Carousel` refuses it; a `Timeline`
        // made alone may be one): no time has a frame, not even 0.
        guard count > 0, time >= .zero, time < end else {
            throw .timeOutsideTimeline(time, length: end)
        }
        // The last i with round(i * 10^6 / fps) <= t: i * 10^6 / fps < t + 1/2, that is
        // 2 * 10^6 * i < (2t + 1) * fps, in whole numbers (t below 2^32 µs, fps at most 50).
        return min(count - 1, ((2 * time.microseconds + 1) * fps - 1) / 2_000_000)
    }

    /// The times that have a frame at `fps` end here: at the later of the script's end
    /// (``length``) and the last frame's (``frameCount(fps:)`` / fps, to the microsecond,
    /// half up). They differ by less than half a frame. `fps` outside 1...50 traps, as in
    /// ``frameCount(fps:)``.
    public func shownLength(fps: Int) -> MediaTime {
        let frames = MediaTime(microseconds: (2 * frameCount(fps: fps) * 1_000_000 + fps) / (2 * fps))
        return frames > length ? frames : length
    }

    /// The state of every frame at `fps` (1...50; other values trap, as in ``frameCount(fps:)``).
    ///
    /// ``frameStates(fps:)`` gives the same states without keeping them, each worked out when
    /// it is read.
    public func frames(fps: Int) -> [FrameState] {
        var states: [FrameState] = []
        let total = frameCount(fps: fps)
        states.reserveCapacity(total)
        var k = 0
        var r = 0
        for i in 0..<total {
            let scaledTime = i * 1_000_000  // frame time * fps, in µs
            while k + 1 < segments.count, scaledTime >= segments[k].end.microseconds * fps {
                k += 1
            }
            while r < releases.count, scaledTime >= (releases[r].time + Timeline.touchFade).microseconds * fps {
                r += 1
            }
            states.append(state(frame: i, fps: fps, segment: k, release: r))
        }
        return states
    }

    /// The state of every frame at `fps` (1...50; other values trap, as in
    /// ``frameCount(fps:)``), each worked out when it is read: what ``frames(fps:)`` holds,
    /// in memory that does not grow with the frame count.
    public func frameStates(fps: Int) -> FrameStates {
        FrameStates(timeline: self, fps: fps, count: frameCount(fps: fps))
    }

    /// The state of frame `i` at `fps`: the segment it falls in and the first release whose
    /// indicator has not faded by then, each found by bisection, as ``frames(fps:)`` finds them
    /// walking forward.
    func state(frame i: Int, fps: Int) -> FrameState {
        let scaledTime = i * 1_000_000  // frame time * fps, in µs
        // The first segment that ends after the frame starts, or the last; the first release
        // still fading. Both orders are sorted: segments end in time order, releases happen in it.
        var low = 0, high = segments.count - 1
        while low < high {
            let mid = (low + high) / 2
            if scaledTime >= segments[mid].end.microseconds * fps { low = mid + 1 } else { high = mid }
        }
        var first = 0, past = releases.count
        while first < past {
            let mid = (first + past) / 2
            if scaledTime >= (releases[mid].time + Timeline.touchFade).microseconds * fps { first = mid + 1 } else { past = mid }
        }
        return state(frame: i, fps: fps, segment: low, release: first)
    }

    private func state(frame i: Int, fps: Int, segment k: Int, release r: Int) -> FrameState {
        let s = segments[k]
        // Progress num / den, in whole numbers (frame time and segment times x fps, in µs).
        let den = max(1, s.length.microseconds * fps)
        let num = min(den, i * 1_000_000 - s.start.microseconds * fps)
        let u = Double(num) / Double(den)
        var position: Double
        var jumped = false
        switch s.motion {
        case .hold(let page, let entry):
            let firstFrame = (s.start.microseconds * fps + 999_999) / 1_000_000
            position = Double(i == firstFrame && entry != page ? entry : page)
            jumped = i == firstFrame + 1 && entry != page
        case .move:
            position = s.motion.position(progress: u, length: s.length)
        case .drag, .rest, .settle:
            position = s.motion.position(progress: u, length: s.length)
        }
        let (finger, lifted) = fingers(frame: i, fps: fps, segment: s, progress: u, release: r)
        return FrameState(index: i, position: position, from: s.fromPage, to: s.toPage, moving: s.motion.isMoving,
                          jumped: jumped, segment: k, phase: s.motion.phase, finger: finger, lifted: lifted,
                          offset: s.linear?.pixels(max(0, num), over: den))
    }

    /// The fingers at frame `i`: the one on the screen during a drag or rest, and each lifted
    /// one fading for 0.15 s after its release, where it lifted. The first is the finger
    /// down, or else the one lifted last; the rest are the other lifted fingers still
    /// fading, the earliest first. A drag that starts while a lifted finger fades leaves it
    /// fading, as a touch indicator does on the device.
    private func fingers(frame i: Int, fps: Int, segment s: Segment, progress u: Double,
                         release r: Int) -> (finger: FingerState?, lifted: [FingerState]) {
        var fading: [FingerState] = []
        var k = r
        while k < releases.count, i * 1_000_000 >= releases[k].time.microseconds * fps {
            let elapsed = Double(i * 1_000_000 - releases[k].time.microseconds * fps) / Double(fps)
            fading.append(FingerState(offset: releases[k].offset,
                                      alpha: 1 - elapsed / Double(Timeline.touchFade.microseconds)))
            k += 1
        }
        switch s.finger {
        case .still(let offset)?:
            return (FingerState(offset: offset, alpha: 1), fading)
        case let .moving(from, by, easing)?:
            return (FingerState(offset: from + by * easing.value(at: u, duration: s.length.seconds), alpha: 1), fading)
        case nil:
            guard let last = fading.popLast() else { return (nil, []) }
            return (last, fading)
        }
    }
}

/// What the timeline says about one frame.
public struct FrameState: Equatable, Sendable {
    /// Frame index i; the frame is shown from `i / fps` seconds.
    public let index: Int
    /// Position p in pages; a clone when outside `0..<N`.
    public let position: Double
    /// The real page the current segment starts from.
    public let from: Int
    /// The real page the current segment ends on.
    public let to: Int
    /// Whether the content is moving.
    public let moving: Bool
    /// Whether this frame comes right after a jump from a clone to its real page.
    public let jumped: Bool
    /// Index of the timeline segment the frame falls in.
    public let segment: Int
    /// What is happening: hold, move, drag or settle.
    public let phase: Phase
    /// The finger, while it is down or fading after a release (the one lifted last).
    public let finger: FingerState?
    /// Fingers lifted before ``finger`` and still fading, the earliest first: a drag that
    /// starts within 0.15 s of a release, or two releases that close together.
    public let lifted: [FingerState]
    /// `round(position * pitch)` (half up) in pixels, worked out exactly, where the timeline
    /// moves the content linearly in time (a `linear` move or drag, a finger resting) and on
    /// a frame at the very start of a settle or an eased drag, which begins where the
    /// gesture's exact offset is; nil elsewhere, and in a state made with the public initializer.
    /// ``Geometry/x0(of:)`` reads it.
    public let offset: Int?

    /// Creates a frame state (the timeline makes these; tests and custom renderers may too).
    public init(index: Int, position: Double, from: Int, to: Int, moving: Bool, jumped: Bool, segment: Int = 0,
                phase: Phase? = nil, finger: FingerState? = nil, lifted: [FingerState] = []) {
        self.init(index: index, position: position, from: from, to: to, moving: moving, jumped: jumped, segment: segment,
                  phase: phase, finger: finger, lifted: lifted, offset: nil)
    }

    init(index: Int, position: Double, from: Int, to: Int, moving: Bool, jumped: Bool, segment: Int,
         phase: Phase?, finger: FingerState?, lifted: [FingerState], offset: Int?) {
        self.index = index
        self.position = position
        self.from = from
        self.to = to
        self.moving = moving
        self.jumped = jumped
        self.segment = segment
        self.phase = phase ?? (moving ? .move : .hold)
        self.finger = finger
        self.lifted = lifted
        self.offset = offset
    }
}

/// The state of every frame of a timeline at one frame rate, each worked out when it is
/// read (``Timeline/frameStates(fps:)``): what ``Timeline/frames(fps:)`` returns, in memory
/// that does not grow with the frame count. Reading a state costs a bisection of the
/// timeline's segments and releases.
public struct FrameStates: RandomAccessCollection, Sendable {
    /// The timeline the states are of.
    public let timeline: Timeline
    /// Frames per second.
    public let fps: Int
    /// Number of frames, ``Timeline/frameCount(fps:)``.
    public let count: Int

    /// 0.
    public var startIndex: Int { 0 }
    /// ``count``.
    public var endIndex: Int { count }

    /// The state of frame `i` (in `0..<count`; outside it traps, as an array's subscript does).
    public subscript(i: Int) -> FrameState {
        precondition(i >= 0 && i < count, "FrameStates: frame \(i) is outside 0..<\(count)")
        return timeline.state(frame: i, fps: fps)
    }
}

/// The finger in one frame: its offset in pixels from the viewport's centre, and the
/// touch indicator's opacity (1 while down, falling to 0 over 0.15 s after the release).
public struct FingerState: Hashable, Sendable {
    /// Horizontal offset from the viewport's centre, in pixels.
    public let offset: Double
    /// Opacity of the touch indicator, 0...1.
    public let alpha: Double

    /// A finger at `offset` with indicator opacity `alpha`.
    public init(offset: Double, alpha: Double) {
        self.offset = offset
        self.alpha = alpha
    }
}
