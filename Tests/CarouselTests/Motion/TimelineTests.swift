import Carousel
import CarouselTestSupport
import Testing

struct TimelineTests {
    func timeline(_ script: String, count: Int = 5) throws -> Timeline {
        try Timeline(script: Script(parsing: script), count: count, pitch: 100, hold: 2, moveDuration: 0.3, easing: .easeInOut)
    }

    /// Positions at chosen frames (fps 10, so frame i is at i / 10 s).
    @Test(arguments: [
        ("hold 1; next 1 linear; hold 1", 5, [0: 0.0, 10: 0.0, 15: 0.5, 19: 0.9, 20: 1.0, 29: 1.0]),
        ("prev 1 linear; hold 1", 5, [0: 0.0, 5: -0.5, 10: -1.0, 11: 4.0]),
        ("next 1 linear; next 1 linear; hold 1", 3, [5: 0.5, 10: 1.0, 15: 1.5, 20: 2.0]),
        ("goto 4 1 linear; hold 1", 5, [5: -1.0, 10: -2.0, 11: 3.0]),          // 1 -> 4: back 2 beats forward 3
        ("goto 3 1 linear; hold 1", 4, [5: 1.0, 10: 2.0]),                     // tie: forward
        ("goto 1 1 linear; hold 1", 4, [5: 0.0, 10: 0.0]),                     // already there
        ("next 1 linear; hold 1", 1, [0: 0.0, 5: 0.0, 15: 0.0]),               // one page never moves
    ])
    func positions(_ script: String, _ count: Int, _ expected: [Int: Double]) throws {
        let frames = try timeline(script, count: count).frames(fps: 10)
        for (i, p) in expected {
            #expect(abs(frames[i].position - p) < 1e-9, "\(script): frame \(i) at \(frames[i].position), expected \(p)")
        }
    }

    @Test func durationIsSumOfSteps() throws {
        let t = try timeline("hold 1.25; next 0.3; prev 250ms; goto 3; autoplay 2")
        #expect(t.length.microseconds == 1_250_000 + 300_000 + 250_000 + 300_000 + 2 * 5 * (2_000_000 + 300_000))
        let defaults = try timeline("autoplay")
        #expect(defaults.length == 11.5)
        #expect(defaults.frameCount(fps: 25) == 288)  // round(287.5), half up
        #expect(defaults.frameCount(fps: 10) == 115)
    }

    @Test func autoplayEndsWhereItBegan() throws {
        let t = try timeline("autoplay 3")
        let last = try #require(t.segments.last)
        #expect(last.toPage == t.segments[0].fromPage)
    }

    /// A move that ends on a clone settles there for one frame, then jumps to the real page.
    @Test func settlesOnCloneThenJumps() throws {
        let frames = try timeline("next 0.5 linear; hold 0.5", count: 1 + 1).frames(fps: 10)
        #expect(frames[5].position == 1 && frames[5].jumped == false)
        let wrap = try timeline("prev 0.5 linear; hold 0.5", count: 3).frames(fps: 10)
        #expect(wrap[5].position == -1)
        #expect(wrap[6].position == 2 && wrap[6].jumped)
        #expect(wrap.filter(\.jumped).count == 1)
    }

    @Test func frameDelays() {
        #expect((0..<25).map { FrameInfo.delay(frame: $0, fps: 25) }.allSatisfy { $0 == 4 })
        #expect((0..<6).map { FrameInfo.delay(frame: $0, fps: 30) } == [3, 4, 3, 3, 4, 3])
        #expect((0..<4).map { FrameInfo.delay(frame: $0, fps: 40) } == [3, 2, 3, 2])
        for fps in 1...50 {
            let delays = (0..<(fps * 3)).map { FrameInfo.delay(frame: $0, fps: fps) }
            #expect(delays.reduce(0, +) == 300, "fps \(fps)")
            #expect(delays.allSatisfy { $0 >= 2 }, "fps \(fps)")
        }
    }

    /// Frame i shows from i / fps to the microsecond: the time `frames.json` gives each frame
    /// (i / fps, a `Double`, as it prints and reads back) is that frame's at every rate, and
    /// the microsecond before that frame's start is the frame before's.
    @Test func eachFrameTimeGivesItsFrame() throws {
        let timeline = try timeline("hold 1.5; next 0.5; hold 0.2")
        for fps in 1...50 {
            for i in 0..<timeline.frameCount(fps: fps) {
                let printed = "\(Double(i) / Double(fps))"
                let seconds = try #require(Double(printed))
                let time = try #require(MediaTime(seconds: seconds))
                #expect(try timeline.frameIndex(at: time, fps: fps) == i, "fps \(fps), frame \(i) at \(printed) s")
                // Frame i's first microsecond, round(i * 10^6 / fps) half up, and the one before it.
                let start = (2 * i * 1_000_000 + fps) / (2 * fps)
                #expect(try timeline.frameIndex(at: MediaTime(microseconds: start), fps: fps) == i)
                if i > 0 {
                    #expect(try timeline.frameIndex(at: MediaTime(microseconds: start - 1), fps: fps) == i - 1)
                }
            }
        }
        // Where 1 / fps is a whole number of microseconds, floor(t * fps).
        #expect(try timeline.frameIndex(at: MediaTime(microseconds: 39_999), fps: 25) == 0)
        #expect(try timeline.frameIndex(at: MediaTime(microseconds: 40_000), fps: 25) == 1)
        // At 7 fps frame 10 starts at 1.4285714... s: 1,428,571 µs is frame 10's, 1,428,570 µs frame 9's.
        #expect(try timeline.frameIndex(at: MediaTime(microseconds: 1_428_571), fps: 7) == 10)
        #expect(try timeline.frameIndex(at: MediaTime(microseconds: 1_428_570), fps: 7) == 9)
    }

    /// Times up to the later of the script's end and the last frame's end have a frame: the
    /// last frame is shown past a script that ends before it does, as a player shows it, and
    /// any time of a script whose frames end before it. Before, the script's end was the
    /// bound either way, so `hold 1.6` at 1 fps refused 1.7 s, inside its second frame.
    @Test func timesUpToTheLastFramesEndHaveAFrame() throws {
        let longer = try timeline("hold 1.6")  // two frames at 1 fps: the second shown until 2 s
        #expect(longer.frameCount(fps: 1) == 2 && longer.shownLength(fps: 1) == 2)
        #expect(try longer.frameIndex(at: 1.7, fps: 1) == 1)
        #expect(try longer.frameIndex(at: MediaTime(microseconds: 1_999_999), fps: 1) == 1)
        #expect(throws: CarouselError.timeOutsideTimeline(2, length: 2)) { try longer.frameIndex(at: 2, fps: 1) }
        let shorter = try timeline("next 1.4 linear")  // one frame at 1 fps, the script 1.4 s
        #expect(shorter.frameCount(fps: 1) == 1 && shorter.shownLength(fps: 1) == 1.4)
        #expect(try shorter.frameIndex(at: 1.2, fps: 1) == 0)
        #expect(throws: CarouselError.timeOutsideTimeline(1.4, length: 1.4)) { try shorter.frameIndex(at: 1.4, fps: 1) }
        // At 3 fps two frames end at 0.666667 s (half up), past a 0.6 s script.
        let third = try timeline("hold 0.6")
        #expect(third.frameCount(fps: 3) == 2 && third.shownLength(fps: 3) == MediaTime(microseconds: 666_667))
        #expect(try third.frameIndex(at: MediaTime(microseconds: 666_666), fps: 3) == 1)
    }

    /// A timeline shorter than half a frame has no frame, so no time has one: `frameIndex`
    /// throws for 0 as for any time, where it gave -1. (A `Carousel` refuses such a script.)
    @Test func aTimelineOfNoFramesHasNoFrameAtZero() throws {
        let short = try Timeline(script: Script(steps: [.hold(MediaTime(microseconds: 10))]), count: 1, pitch: 1, hold: 2,
                                 moveDuration: 0.3, easing: .linear)
        #expect(short.frameCount(fps: 25) == 0)
        #expect(throws: CarouselError.self) { try short.frameIndex(at: .zero, fps: 25) }
    }

    /// A linear move puts every frame's offset `round(p * pitch)` where the spec says, half
    /// up, worked out in whole numbers: 0.58 of a page of 25 pixels is 14.5, which floating
    /// point gave as 14.499999999999998 (x0 14 for 15), and -3.5 rounds to -3. Every frame of
    /// a linear `next` over a second at 7, 25 and 50 fps, pitches 1 to 130, is
    /// `floor((2 * pitch * i + fps) / (2 * fps))`, and `Geometry.x0(of:)` reads it.
    @Test func linearOffsetsRoundHalfUp() throws {
        func frames(_ script: String, pitch: Int, fps: Int) throws -> [FrameState] {
            try Timeline(script: Script(parsing: script), count: 5, pitch: pitch, hold: 2, moveDuration: 0.3,
                         easing: .easeInOut).frames(fps: fps)
        }
        #expect(try frames("next 1 linear; next 1 linear", pitch: 25, fps: 50)[29].offset == 15)
        #expect(try frames("prev 1 linear; prev 1 linear", pitch: 25, fps: 50)[7].offset == -3)
        for fps in [7, 25, 50] {
            for pitch in 1...130 {
                let states = try frames("next 1 linear", pitch: pitch, fps: fps)
                for state in states {
                    #expect(state.offset == (2 * pitch * state.index + fps) / (2 * fps), "pitch \(pitch), \(fps) fps, frame \(state.index)")
                }
            }
        }
        // Eased moves keep the position's rounding; holds are whole pages either way.
        #expect(try frames("next 1 ease-in-out", pitch: 25, fps: 50).allSatisfy { $0.offset == nil })
        var options = CarouselOptions()
        options.fps = 50
        options.size = PixelSize(width: 25, height: 20)
        options.align = .start
        options.script = try Script(parsing: "next 1 linear; next 1 linear")
        let items = (0..<5).map { RGBAImage(width: 25, height: 20, fill: RGBA(r: UInt8(40 * $0), g: 90, b: 200)) }
        let carousel = try Carousel(images: items, options: options)
        #expect(carousel.info(index: 29).x0 == 15)
        #expect(carousel.geometry.x0(of: carousel.states[29]) == 15)
    }

    /// Eased moves and settles work in floating point, and a position exactly half way (half a
    /// pixel, or half a page for the lit dot) came out a hair below the half and rounded down:
    /// x0 0 for 1 at a settle's midpoint, -13 for -12 and page 4 for 0 at a symmetric curve's,
    /// 1 for 2 along `cubic-bezier(0,0,1,1)`, which is linear.
    @Test func easedTiesRoundHalfUp() throws {
        func carousel(_ script: String, width: Int, fps: Int) throws -> Carousel {
            var options = CarouselOptions()
            options.size = PixelSize(width: width, height: 4)
            options.align = .start
            options.fps = fps
            options.duration = 0.2
            options.script = try Script(parsing: script)
            let items = (0..<5).map { RGBAImage(width: width, height: 4, fill: RGBA(r: UInt8(40 * $0), g: 90, b: 200)) }
            return try Carousel(images: items, options: options)
        }
        let settling = try carousel("drag -4 0.1; hold 0.1; release; hold 0.1", width: 100, fps: 10)
        let settle = settling.info(index: 3)
        #expect(settle.phase == .settle && settle.x0 == 1, "p = 0.005 pages: \(settle.position)")
        let symmetric = try carousel("prev 0.4 cubic-bezier(0.3,0.1,0.7,0.9); hold 0.04", width: 25, fps: 25).info(index: 5)
        #expect(symmetric.x0 == -12 && symmetric.page == 0, "p = -0.5 pages: \(symmetric.position)")
        let straight = try carousel("next 0.16 cubic-bezier(0,0,1,1); hold 0.04", width: 6, fps: 25).info(index: 1)
        #expect(straight.x0 == 2, "p = 0.25 pages: \(straight.position)")
        // Only a hair counts (1e-9 pages): a position clearly below the half still rounds down.
        let geometry = settling.geometry
        #expect(geometry.x0(at: 0.0049999999999999975) == 1 && geometry.x0(at: -0.005000000000000001) == 0)
        #expect(geometry.x0(at: 0.004999) == 0 && geometry.x0(at: -0.015) == -1 && geometry.x0(at: 0.025) == 3)
        #expect(geometry.x0(at: 0.37499999999999) == 38 && geometry.x0(at: 0.374999) == 37)
        let page = { (p: Double) in DotsSwitch.half.page(for: FrameState(index: 0, position: p, from: 0, to: 0, moving: true, jumped: false), count: 5) }
        #expect(page(-0.5000000000000001) == 0 && page(0.49999999999999994) == 1 && page(0.4999) == 0)
    }

    @Test func gotoBeyondLastPageIsAnError() {
        #expect(throws: CarouselError.script(source: "script", step: 2, line: 0, text: "goto 6",
                                             reason: "page 6 does not exist; expected 1...5")) {
            try timeline("hold 1; goto 6")
        }
    }

    @Test func refusesEndlessTimelines() {
        #expect(throws: CarouselError.self) { try timeline("hold 4000") }
        #expect(throws: CarouselError.self) { try timeline("autoplay 100000000") }
        #expect(throws: CarouselError.self) { try timeline("autoplay 9223372036854775807") }
    }

    /// An autoplay whose cycle lasts no time is refused before it is expanded (it once
    /// tried to allocate billions of segments).
    @Test func refusesAutoplayOfZeroLength() throws {
        let script = try Script(parsing: "autoplay 1000000000")
        #expect(throws: CarouselError.invalidOption(key: .hold, reason: "is 0 s and so is duration, so \"autoplay 1000000000\" (step 1 of script) would last no time")) {
            try Timeline(script: script, count: 5, pitch: 100, hold: 0, moveDuration: 0, easing: .linear)
        }
    }

    /// Pages of a microsecond fit in the hour by the billion; their segments are refused before
    /// they are made (a billion tried to allocate 9.9 GB), and so is a timeline of no pages.
    @Test func refusesAutoplayOfTooManySteps() throws {
        #expect(throws: CarouselError.script(source: "script", step: 2, line: 0, text: "autoplay 500000",
                                             reason: "500000 x 1 pages make 500000 holds and as many moves, more than the 1000000 steps a timeline may have")) {
            try Timeline(script: Script(parsing: "hold 1; autoplay 500000"), count: 1, pitch: 100,
                         hold: MediaTime(microseconds: 1), moveDuration: 0, easing: .linear)
        }
        let fits = try Timeline(script: Script(parsing: "autoplay 1000"), count: 2, pitch: 100,
                                hold: MediaTime(microseconds: 1), moveDuration: 0, easing: .linear)
        #expect(fits.segments.count == 4000)
        #expect(throws: CarouselError.noImages) {
            try Timeline(script: .autoplay, count: 0, pitch: 100, hold: 2, moveDuration: 0.3, easing: .linear)
        }
    }

    /// Autoplay past the hour says what a page takes and how many pages: a written step is the
    /// step's error; the default script, which nobody wrote, the hold's.
    @Test func autoplayPastTheHourSaysWhy() throws {
        #expect(throws: CarouselError.invalidOption(key: .hold, reason: "is 3600.0 s a page, so the default autoplay, 1 x 30 pages at "
                                                    + "3600.3 s a page (hold and duration), would last longer than the limit of one hour")) {
            try Timeline(script: .autoplay, count: 30, pitch: 100, hold: 3600, moveDuration: 0.3, easing: .linear, written: false)
        }
        #expect(throws: CarouselError.script(source: "script", step: 1, line: 0, text: "autoplay 400",
                                             reason: "400 x 5 pages at 2.3 s a page (hold and duration) would last longer than the limit of one hour")) {
            try Timeline(script: Script(parsing: "autoplay 400"), count: 5, pitch: 100, hold: 2, moveDuration: 0.3, easing: .linear)
        }
        // An autoplay that fits in the hour on its own, after steps that leave it no room, is
        // too long as any step would be: the timeline is, not the autoplay.
        #expect(throws: CarouselError.script(source: "script", step: 2, line: 0, text: "autoplay 1",
                                             reason: "the timeline would last over the limit of one hour")) {
            try Timeline(script: Script(parsing: "hold 3595; autoplay 1"), count: 5, pitch: 100, hold: 2, moveDuration: 0.3, easing: .linear)
        }
        // Through the options: no script given, or one written.
        var options = CarouselOptions()
        options.hold = 3600
        let images = [RGBAImage(width: 4, height: 4, fill: .white), RGBAImage(width: 4, height: 4)]
        #expect(throws: CarouselError.invalidOption(key: .hold, reason: "is 3600.0 s a page, so the default autoplay, 1 x 2 pages at "
                                                    + "3600.3 s a page (hold and duration), would last longer than the limit of one hour")) {
            try Carousel(images: images, options: options)
        }
        // The longer of the two is at fault.
        options.hold = 2
        options.duration = 3600
        #expect(throws: CarouselError.invalidOption(key: .duration, reason: "is 3600.0 s a move, so the default autoplay, 1 x 2 pages at "
                                                    + "3602.0 s a page (hold and duration), would last longer than the limit of one hour")) {
            try Carousel(images: images, options: options)
        }
        options.script = .autoplay
        #expect(throws: CarouselError.self) { try Carousel(images: images, options: options) }
        do {
            _ = try Carousel(images: images, options: options)
        } catch {
            guard case .script = error else { Issue.record("a written script's step is at fault: \(error)"); return }
        }
    }

    /// A script made in Swift of more steps than a timeline may have segments is refused at the
    /// step that passes the limit, like an autoplay of too many: a gesture that long, of drags
    /// of a million pixels each, is refused before the sum of its drags could leave `Int`.
    @Test(SlowTests.millionSteps) func refusesScriptsOfTooManySteps() throws {
        let drags = [ScriptStep](repeating: .drag(dx: 1_000_000, duration: MediaTime(microseconds: 1)), count: Timeline.maximumSegments)
        #expect(throws: CarouselError.script(source: "script", step: Timeline.maximumSegments, line: 0, text: "drag 1000000.0 0.000001",
                                             reason: "the script makes more than the \(Timeline.maximumSegments) steps (holds, moves, "
                                                 + "drags and settles) a timeline may have")) {
            try Timeline(script: Script(steps: drags + [.release]), count: 5, pitch: 100, hold: 1, moveDuration: 0.3, easing: .linear)
        }
    }

    /// Steps and curves made in Swift are checked as their text would be: out-of-range values
    /// are a `CarouselError` naming the step, never a trap (`autoplay(cycles: -3)` and
    /// `drag(dx: .nan)` once trapped) or a timeline running backwards (`hold(-1)`).
    @Test func stepsMadeInSwiftAreCheckedAsText() throws {
        let cases: [(ScriptStep, String)] = [
            (.autoplay(cycles: -3), "-3 is not a cycle count; expected a whole number from 1"),
            (.autoplay(cycles: 0), "0 is not a cycle count; expected a whole number from 1"),
            (.drag(dx: .nan), "nan is not a distance in pixels; expected a decimal number from -1000000 to 1000000"),
            (.drag(dx: -.infinity), "-inf is not a distance in pixels; expected a decimal number from -1000000 to 1000000"),
            (.drag(dx: 5_000_000), "5000000.0 is not a distance in pixels; expected a decimal number from -1000000 to 1000000"),
            (.hold(-1), "DURATION: must be 0 to 3600 seconds, got -1"),
            (.hold(7200), "DURATION: must be 0 to 3600 seconds, got 7200"),
            (.next(duration: 3600.5), "DURATION: must be 0 to 3600 seconds, got 3600.5"),
            (.next(duration: -1), "DURATION: must be 0 to 3600 seconds, got -1"),
            (.swipe(.next, duration: -0.5), "DURATION: must be 0 to 3600 seconds, got -0.5"),
            (.goto(page: 0), "0 is not a page number; expected a whole number from 1"),
            (.next(easing: .cubicBezier(2, 0, -1, 1)), "cubic-bezier takes x1 and x2 in 0...1 and y1 and y2 in -100...100, got cubic-bezier(2.0,0.0,-1.0,1.0)"),
            (.prev(easing: .spring(damping: 0, response: 0)), "spring takes DAMPING and RESPONSE in 0.01...100, got spring(0.0,0.0)"),
            (.drag(dx: -20, easing: .spring(damping: .nan, response: 1)), "spring takes DAMPING and RESPONSE in 0.01...100, got spring(nan,1.0)"),
        ]
        for (step, reason) in cases {
            let script = Script(steps: [.hold(1), step, .release].filter { $0 != .release || step.isDrag })
            #expect(throws: CarouselError.script(source: "script", step: 2, line: 0, text: step.description, reason: reason)) {
                try Timeline(script: script, count: 5, pitch: 100, hold: 1, moveDuration: 0.3, easing: .linear)
            }
            // After a drag, whose gesture is measured over the drags to come before they are checked.
            guard step.isDrag else { continue }
            #expect(throws: CarouselError.script(source: "script", step: 2, line: 0, text: step.description, reason: reason)) {
                try Timeline(script: Script(steps: [.drag(dx: -10), step, .release]), count: 5, pitch: 100, hold: 1,
                             moveDuration: 0.3, easing: .linear)
            }
        }
        // The options' own curve and times, made in Swift, too.
        #expect(throws: CarouselError.invalidOption(key: .easing, reason: "spring takes DAMPING and RESPONSE in 0.01...100, got spring(0.0,0.0)")) {
            try Timeline(script: .autoplay, count: 5, pitch: 100, hold: 1, moveDuration: 0.3, easing: .spring(damping: 0, response: 0))
        }
        #expect(throws: CarouselError.invalidOption(key: .hold, reason: "must be 0 to 3600 seconds, got -2")) {
            try Timeline(script: .autoplay, count: 5, pitch: 100, hold: -2, moveDuration: 0.3, easing: .linear)
        }
        var options = CarouselOptions()
        // A literal past the hour is kept as written, so the range check sees it.
        options.hold = 7200
        #expect(throws: CarouselError.invalidOption(key: .hold, reason: "must be 0 to 3600 seconds, got 7200")) { try options.validate() }
        options.hold = 3600
        try options.validate()
        options.easing = .cubicBezier(0.5, 0, .infinity, 1)
        #expect(throws: CarouselError.invalidOption(key: .easing, reason: "cubic-bezier takes x1 and x2 in 0...1 and y1 and y2 in -100...100, got cubic-bezier(0.5,0.0,inf,1.0)")) {
            try options.validate()
        }
        // Curves at the ends of their ranges are taken, as their text is.
        #expect(Easing.spring(damping: 0.01, response: 100).refusal == nil && Easing.cubicBezier(0, -100, 1, 100).refusal == nil)
        #expect(Easing("spring(0.01,100)") == .spring(damping: 0.01, response: 100))
        #expect(Easing("cubic-bezier(0,-100,1,100.5)") == nil)
    }

    /// Each kind of motion answers its position and velocity.
    @Test func motionPositionAndVelocity() {
        let move = Motion.move(from: 2, by: -1, easing: .linear)
        #expect(move.position(at: 0.25, length: 0.5) == 1.5)
        #expect(abs(move.velocity(at: 0.25, length: 0.5) - -2) < 1e-9)
        let eased = Motion.move(from: 0, by: 1, easing: .easeOut)
        #expect(abs(eased.velocity(at: 0.5, length: 0.5)) < 1e-6, "ease-out ends at rest")
        #expect(Motion.hold(page: 3, entry: 3).position(at: 1, length: 2) == 3)
        #expect(Motion.hold(page: 3, entry: 3).velocity(at: 1, length: 2) == 0)
    }

    /// A timeline shorter than half a frame has no frames: an error, never an empty GIF.
    @Test(arguments: ["hold 0", "next 0", "hold 0.01"])
    func emptyTimelineIsAnError(_ text: String) throws {
        var options = CarouselOptions()
        options.script = try Script(parsing: text)
        #expect(throws: CarouselError.self) {
            try Carousel(images: [RGBAImage(width: 4, height: 4, fill: .white), RGBAImage(width: 4, height: 4)], options: options)
        }
    }

    /// The states read one at a time, in any order, are the ones worked out in a walk: the
    /// bisection finds each frame's segment (zero-length ones included) and its fading
    /// releases (two within 0.15 s of each other included) as the walk does, at rates where
    /// a frame starts between two microseconds too.
    @Test(arguments: [
        "autoplay 2",
        "hold 1; next 0; hold 0; prev 0; hold 1; goto 3 0.4 linear; hold 0.3",
        "drag -120 0.4; release; drag 40 0.05; release; hold 0.2; drag 300 0.3 linear; hold 0.1; release; hold 0.5",
        "swipe next; swipe next; hold 0.05; swipe prev 0.1; hold 1",
        "drag 60 0.2; release; drag 60 0.02; release; drag -60 0.02; release; hold 0.4",
    ])
    func statesReadOneAtATimeAreTheWalksStates(_ script: String) throws {
        let t = try timeline(script, count: 4)
        for fps in [1, 7, 10, 25, 30, 50] {
            let walked = t.frames(fps: fps)
            let states = t.frameStates(fps: fps)
            try #require(states.count == walked.count && !walked.isEmpty, "\(script) at \(fps) fps")
            let inOrder = walked.indices.first { states[$0] != walked[$0] }
            #expect(inOrder == nil, "\(script) at \(fps) fps: frame \(inOrder ?? 0) read in order differs")
            #expect(walked.contains { $0.finger != nil } == (script.contains("drag") || script.contains("swipe")))
        }
    }

    @Test func zeroLengthMoveJumps() throws {
        let frames = try timeline("hold 1; next 0; hold 1").frames(fps: 10)
        #expect(frames.count == 20)
        #expect(frames[9].position == 0 && frames[10].position == 1)
    }
}

private extension ScriptStep {
    var isDrag: Bool { if case .drag = self { true } else { false } }
}
