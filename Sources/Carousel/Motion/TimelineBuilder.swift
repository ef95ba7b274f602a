/// Expands script steps into timeline segments, keeping the carousel's state between
/// them: the resting page, or while a finger is involved, the exact position, the
/// finger's offset and its velocity (spec sections 3 and 3b).
struct TimelineBuilder {
    let count: Int
    let pitch: Int
    let hold: MediaTime
    let moveDuration: MediaTime
    let easing: Easing
    let source: String
    /// Whether the user wrote the script (false for the default one).
    let written: Bool

    private(set) var segments: [Timeline.Segment] = []
    private(set) var releases: [Timeline.Release] = []
    /// Elapsed time in microseconds.
    private var time = 0
    /// The real page at rest, `0..<N` (the page a gesture began on while the finger is down).
    private var page = 0
    /// Where the next rest is entered: a clone a move or settle landed on, else `page`.
    private var entry = 0
    /// While a finger is down: the gesture under way.
    private var gesture: Gesture?

    /// A gesture from the finger going down to its release.
    ///
    /// The finger's offset is kept in whole millionths of a pixel (``microPixels``), so the
    /// drags of a gesture add up exactly: `drag -12; drag -46; drag -2` is one page of 60
    /// pixels, and so is `drag -0.1` six hundred times. In pixels, as a sum of `Double`s
    /// divided by the pitch one drag at a time, the first came to 1.0000000000000002 pages
    /// and settled on the page after.
    private struct Gesture {
        /// The real page the finger went down on: the content's position then, in pages.
        let page: Int
        /// Finger offset from where it went down, in millionths of a pixel.
        var travelled: Int
        /// The offset of the finger's first contact from the viewport's centre: `-S / 2`,
        /// with S the sum of the gesture's drags.
        let origin: Double
        /// Content velocity in pages per second, as the finger would leave it now.
        var velocity: Double
    }

    /// Millionths of a pixel in a pixel: a drag's DX is taken to the nearest millionth.
    static let microPixels = Timeline.LinearOffset.unit

    /// `dx` pixels in millionths of a pixel, to the nearest (exact for a DX written with up to
    /// six decimals). A drag is made only once its step's refusal passed, which keeps DX finite
    /// and within a million pixels, and a swipe is a third of a page, at most about 7 x 10^8
    /// pixels; the drags a gesture's width counts ahead are not checked yet, so a DX past any
    /// of those counts as none there (its step fails when it comes).
    static func micro(_ dx: Double) -> Int {
        guard dx.isFinite, abs(dx) <= Double(Geometry.maximumCount) else { return 0 }
        return Int((dx * Double(microPixels)).rounded())
    }

    /// Millionths of a pixel in a page: the content moves a page when the finger moves `pitch` pixels.
    private var microPitch: Int { pitch * Self.microPixels }

    /// The content's position in pages with the finger `travelled` millionths of a pixel from
    /// where it went down on `page` (the content follows the finger; with one picture it stays).
    private func position(_ page: Int, travelled: Int) -> Double {
        count > 1 ? Double(page) - Double(travelled) / Double(microPitch) : Double(page)
    }

    init(count: Int, pitch: Int, hold: MediaTime, moveDuration: MediaTime, easing: Easing, source: String, written: Bool = true) {
        self.count = count
        self.pitch = pitch
        self.hold = hold
        self.moveDuration = moveDuration
        self.easing = easing
        self.source = source
        self.written = written
    }

    /// Whether the script so far leaves the finger down.
    var isFingerDown: Bool { gesture != nil }

    /// Expands one step; `remaining` are the steps after it (a gesture is centred on its drags until the release).
    mutating func add(_ item: Script.Entry, remaining: ArraySlice<Script.Entry>) throws(CarouselError) {
        func fail(_ reason: String) -> CarouselError {
            .script(source: source, step: item.number, line: item.line, text: item.text, reason: reason)
        }
        func fingerUp(_ step: String) throws(CarouselError) {
            guard gesture == nil else { throw fail("\(step) while the finger is down; \"release\" it first") }
        }
        // A step made in Swift is checked as its text would be (``ScriptStep/refusal``).
        if let reason = item.step.refusal { throw fail(reason) }
        // A step adds at most two segments (a swipe's drag and settle); a script of 1 MiB
        // writes a few hundred thousand, a script made in Swift any number.
        guard segments.count <= Timeline.maximumSegments - 2 else {
            throw fail("the script makes more than the \(Timeline.maximumSegments) steps (holds, moves, drags and settles) a timeline may have")
        }
        switch item.step {
        case .hold(let length):
            if gesture != nil {
                rest(length)
            } else {
                add(length, by: 0, easing: easing)
            }
        case let .next(d, e):
            try fingerUp("next")
            add(d ?? moveDuration, by: 1, easing: e ?? easing)
        case let .prev(d, e):
            try fingerUp("prev")
            add(d ?? moveDuration, by: -1, easing: e ?? easing)
        case let .goto(target, d, e):
            try fingerUp("goto")
            guard (1...count).contains(target) else { throw fail("page \(target) does not exist; expected 1...\(count)") }
            let forward = ((target - 1 - page) % count + count) % count
            let by = forward <= count - forward ? forward : forward - count
            add(d ?? moveDuration, by: by, easing: e ?? easing)
        case .autoplay(let cycles):
            try fingerUp("autoplay")
            let cycle = hold.microseconds + moveDuration.microseconds
            guard cycle > 0 else {
                throw .invalidOption(key: .hold, reason: "is 0 s and so is duration, so \"\(item.text)\" (step \(item.number) of \(source)) would last no time")
            }
            let (pages, overflow) = cycles.multipliedReportingOverflow(by: count)
            guard !overflow, pages <= (MediaTime.maximum.microseconds - time) / cycle else {
                // A written autoplay that would fit in the hour on its own is too long only
                // after the steps before it, as any step can be: the timeline's error.
                guard !written || overflow || pages > MediaTime.maximum.microseconds / cycle else {
                    throw fail("the timeline would last over the limit of one hour")
                }
                // Otherwise a written step is the step's error; the default script, which
                // nobody wrote, is too long because of the hold or the duration, the longer of
                // the two: that option's error.
                let page = MediaTime(microseconds: cycle)
                let pages = "\(cycles) x \(count) pages at \(page) a page (hold and duration)"
                guard written else {
                    let (key, value, each) = moveDuration > hold ? (OptionKey.duration, moveDuration, "a move") : (.hold, hold, "a page")
                    throw .invalidOption(key: key, reason: "is \(value) \(each), so the default autoplay, \(pages), would last longer than the limit of one hour")
                }
                throw fail("\(pages) would last longer than the limit of one hour")
            }
            // Each page is a hold and a move: pages of a microsecond or two fit in the hour by
            // the billion, and their segments would not fit in memory.
            guard pages <= (Timeline.maximumSegments - segments.count) / 2 else {
                throw fail("\(cycles) x \(count) pages make \(pages) holds and as many moves, more than the "
                           + "\(Timeline.maximumSegments) steps a timeline may have")
            }
            for _ in 0..<pages {
                add(hold, by: 0, easing: easing)
                add(moveDuration, by: 1, easing: easing)
            }
        case let .drag(dx, d, e):
            let length = d ?? moveDuration
            guard length > .zero else { throw fail("a drag takes time; give it a DURATION above 0 (the default is the duration option)") }
            touchDown(item, remaining)
            drag(dx, length: length, easing: e ?? .linear)
        case .release:
            guard gesture != nil else { throw fail("release with no finger down; a gesture starts with \"drag\" or \"swipe\"") }
            release()
        case let .swipe(direction, d):
            // `drag DX DURATION linear; release` (spec 3b): with the finger already down, the
            // drag goes on from where it is.
            let length = d ?? Timeline.swipeDuration
            guard length > .zero else { throw fail("a swipe takes time; give it a DURATION above 0") }
            let dx = Self.swipeDistance(direction, pitch: pitch)
            touchDown(item, remaining)
            drag(dx, length: length, easing: .linear)
            release()
        }
        guard time <= MediaTime.maximum.microseconds else { throw fail("the timeline would last over the limit of one hour") }
    }

    /// `-round(pitch / 3)` for `next`, `+round(pitch / 3)` for `prev` (half up).
    static func swipeDistance(_ direction: SwipeDirection, pitch: Int) -> Double {
        let third = Double((pitch + 1) / 3)
        return direction == .next ? -third : third
    }

    /// Puts the finger down at the current page, unless it is down already: the indicator is
    /// centred on the gesture that `item` starts (``gestureWidth(from:_:)``).
    private mutating func touchDown(_ item: Script.Entry, _ remaining: ArraySlice<Script.Entry>) {
        if gesture == nil {
            gesture = Gesture(page: page, travelled: 0, origin: -gestureWidth(from: item, remaining) / 2, velocity: 0)
        }
    }

    /// S, the sum of the DX of the drags from `item` until the next release (a swipe, which
    /// ends the gesture, counting as its drag).
    ///
    /// The steps are read where they lie: joined into a new array for each gesture, as they
    /// once were, the steps after every gesture were copied, and 20,000 swipes took 1.17 s
    /// (0.11 s for 5,000). A gesture of more steps than a timeline may have segments is
    /// refused before it ends (``add(_:remaining:)``), so the steps past that are not read,
    /// and the sum, at most a million pixels a drag, stays within `Int`.
    private func gestureWidth(from item: Script.Entry, _ remaining: ArraySlice<Script.Entry>) -> Double {
        var sum = 0
        // nil while the gesture goes on; its width once a step ends it.
        func read(_ step: ScriptStep) -> Double? {
            switch step {
            case .drag(let dx, _, _): sum += Self.micro(dx)
            // A swipe is a drag and the release that ends the gesture.
            case .swipe(let direction, _): return Self.pixels(sum + Self.micro(Self.swipeDistance(direction, pitch: pitch)))
            case .release: return Self.pixels(sum)
            default: break
            }
            return nil
        }
        if let width = read(item.step) { return width }
        for entry in remaining.prefix(Timeline.maximumSegments) {
            if let width = read(entry.step) { return width }
        }
        return Self.pixels(sum)
    }

    /// `micro` millionths of a pixel in pixels.
    private static func pixels(_ micro: Int) -> Double {
        Double(micro) / Double(microPixels)
    }

    /// A timer's hold (`by == 0`) or move.
    private mutating func add(_ length: MediaTime, by: Int, easing: Easing) {
        let moving = count > 1 ? by : 0
        let motion: Motion = moving == 0 ? .hold(page: page, entry: entry) : .move(from: page, by: moving, easing: easing)
        let end = page + moving
        let target = ((end % count) + count) % count
        let (by, overflow) = moving.multipliedReportingOverflow(by: microPitch)
        let linear = moving != 0 && easing == .linear && !overflow ? Timeline.LinearOffset(page: page, pitch: pitch, by: by) : nil
        append(length, motion, from: page, to: target, finger: nil, linear: linear)
        if moving != 0 { entry = end }
        page = target
        if moving == 0 { entry = page }
    }

    private mutating func drag(_ dx: Double, length: MediaTime, easing: Easing) {
        guard var g = gesture else { return }
        let step = Self.micro(dx)
        let from = position(g.page, travelled: g.travelled)
        let by = count > 1 ? -Double(step) / Double(microPitch) : 0
        append(length, .drag(from: from, by: by, easing: easing), from: page, to: page,
               finger: .moving(from: g.origin + Self.pixels(g.travelled), by: Self.pixels(step), easing: easing),
               linear: offset(g, by: -step, throughout: easing == .linear))
        g.travelled += step
        g.velocity = by * easing.slope(at: 1, duration: length.seconds) / length.seconds
        gesture = g
    }

    private mutating func rest(_ length: MediaTime) {
        guard var g = gesture else { return }
        append(length, .rest(at: position(g.page, travelled: g.travelled)), from: page, to: page,
               finger: .still(g.origin + Self.pixels(g.travelled)), linear: offset(g, by: 0))
        g.velocity = 0
        gesture = g
    }

    /// The finger lifts: the target page from the velocity's sign, then the settle (section 3b).
    ///
    /// The position at release, q, is the page the finger went down on plus `ahead / microPitch`
    /// pages, in whole numbers; the target (`ceil`, `floor` or half up) and `delta` are worked
    /// out from them, so a release exactly on a page is on it (no settle), and one exactly
    /// half way rounds up.
    private mutating func release() {
        guard let g = gesture else { return }
        releases.append(Timeline.Release(time: MediaTime(microseconds: time), offset: g.origin + Self.pixels(g.travelled)))
        let v = g.velocity
        // Millionths of a pixel towards higher pages (the content moves against the finger).
        let ahead = count > 1 ? -g.travelled : 0, unit = microPitch
        let pages = v > 0 ? ceilDiv(ahead, unit) : (v < 0 ? floorDiv(ahead, unit) : floorDiv(2 * ahead + unit, 2 * unit))
        let q = position(g.page, travelled: g.travelled)
        let delta = Double(pages * unit - ahead) / Double(unit)
        let landing = g.page + pages
        let real = ((landing % count) + count) % count
        if delta != 0 {
            let length: MediaTime = v * delta > 0
                ? MediaTime(seconds: min(0.6, max(0.15, 3 * abs(delta) / abs(v)))) ?? moveDuration
                : moveDuration
            append(length, .settle(from: q, by: delta), from: page, to: real, finger: nil,
                   linear: offset(g, by: 0, throughout: false))
        }
        gesture = nil
        page = real
        entry = landing
    }

    /// The exact offset of gesture `g`'s content, moving `by` millionths of a pixel (the
    /// content against the finger; with one picture it stays), `throughout` the segment or
    /// at its start only.
    private func offset(_ g: Gesture, by: Int, throughout: Bool = true) -> Timeline.LinearOffset? {
        let moves = count > 1
        return Timeline.LinearOffset(page: g.page, pitch: pitch, travelled: moves ? g.travelled : 0, by: moves ? by : 0,
                                     throughout: throughout)
    }

    private mutating func append(_ length: MediaTime, _ motion: Motion, from: Int, to: Int, finger: Timeline.FingerPath?,
                                 linear: Timeline.LinearOffset? = nil) {
        segments.append(Timeline.Segment(start: MediaTime(microseconds: time), length: length, motion: motion,
                                         fromPage: from, toPage: to, finger: finger, linear: linear))
        time += length.microseconds
    }
}
