import Carousel
import CarouselTestSupport
import Foundation
import Testing

/// Finger gestures (spec section 3b): release velocity, target page, settle, recentring,
/// the paused timer, dots and the touch indicator.
struct GestureTests {
    static func timeline(_ script: String, count: Int = 5, pitch: Int = 100) throws -> Timeline {
        try Timeline(script: Script(parsing: script), count: count, pitch: pitch, hold: 2, moveDuration: 0.3, easing: .easeInOut)
    }

    /// The settle after the first release: (from q, by delta, length in µs), or nil when there is none.
    static func settle(_ t: Timeline) -> (q: Double, delta: Double, length: Int)? {
        for s in t.segments {
            if case let .settle(q, delta) = s.motion { return (q, delta, s.length.microseconds) }
        }
        return nil
    }

    struct Release: CustomStringConvertible, Sendable {
        let script: String
        let q: Double
        let target: Double
        let settle: Int?  // µs; nil when the release lands on a page
        var description: String { script }
    }

    /// pitch 100: a drag of -DX px moves DX / 100 pages; v = (-DX / pitch) E'(1) / D.
    static let releases: [Release] = [
        // v = 0.3 / 0.3 = +1 > 0: ceil(0.3) = 1, delta 0.7, 3 * 0.7 / 1 = 2.1 s clamped to 0.6.
        Release(script: "drag -30 0.3; release", q: 0.3, target: 1, settle: 600_000),
        // v = -1 < 0: floor(-0.3) = -1 (the clone before the first page).
        Release(script: "drag 30 0.3; release", q: -0.3, target: -1, settle: 600_000),
        // v = 3: delta 0.4, 3 * 0.4 / 3 = 0.4 s, unclamped.
        Release(script: "drag -60 0.2; release", q: 0.6, target: 1, settle: 400_000),
        // v = 30: 3 * 0.5 / 30 = 0.05 s, clamped up to 0.15.
        Release(script: "drag -150 0.05; release", q: 1.5, target: 2, settle: 150_000),
        // A rest before the release: v = 0, round(0.3) = 0, over --duration.
        Release(script: "drag -30 0.3; hold 0.2; release", q: 0.3, target: 0, settle: 300_000),
        // ease-out ends at rest: E'(1) = 0, so v = 0 and round(0.7) = 1.
        Release(script: "drag -70 0.3 ease-out; release", q: 0.7, target: 1, settle: 300_000),
        // ease-in-out too: round(0.5) = 1, half up.
        Release(script: "drag -50 0.3 ease-in-out; release", q: 0.5, target: 1, settle: 300_000),
        // ease, y2 = 1: E'(1) = 0 exactly, v = 0, round(0.6) = 1 over --duration (a rounding error
        // in the slope once gave a tiny negative v, floor(0.6) = 0 over 0.6 s).
        Release(script: "drag -60 0.3 ease; release", q: 0.6, target: 1, settle: 300_000),
        // ease-in ends along its first control point: E'(1) = 1 / 0.58, v = 0.3 / 0.58 / 0.1 > 0,
        // ceil(0.3) = 1, 3 * 0.7 / v = 0.406 s.
        Release(script: "drag -30 0.1 ease-in; release", q: 0.3, target: 1, settle: 406_000),
        // Several pages at once, past the last page and its clone: q = 6.2, v = 5.5, ceil = 7, 3 * 0.8 / 5.5 s.
        Release(script: "goto 5 0.3; drag -220 0.4; release", q: 6.2, target: 7, settle: 436_364),
        // Landing exactly on a page: nothing to settle.
        Release(script: "drag -200 0.2; release", q: 2, target: 2, settle: nil),
        // swipe next = drag -round(100 / 3) = -33 over 0.15 s, linear: v = 2.2, 3 * 0.67 / 2.2 = 0.913 s, clamped.
        Release(script: "swipe next", q: 0.33, target: 1, settle: 600_000),
        Release(script: "swipe prev 0.3", q: -0.33, target: -1, settle: 600_000),
    ]

    @Test(arguments: releases)
    func velocityChoosesTheTarget(_ r: Release) throws {
        // A hold after the gesture, so the timeline ends in the rest the gesture led to.
        let t = try Self.timeline(r.script + "; hold 0.1")
        let settle = Self.settle(t)
        #expect(settle?.length == r.settle, "\(r)")
        if let settle {
            #expect(abs(settle.q - r.q) < 1e-9, "\(r): q \(settle.q)")
            #expect(abs(settle.q + settle.delta - r.target) < 1e-9, "\(r): target \(settle.q + settle.delta)")
        }
        // The rest after the gesture is entered at the target (a clone when outside 0..<5), then the real page.
        let rest = try #require(t.segments.last)
        guard case let .hold(page, entry) = rest.motion else {
            Issue.record("\(r): the timeline ends in \(rest.motion), not a rest")
            return
        }
        #expect(entry == Int(r.target) && page == ((Int(r.target) % 5) + 5) % 5, "\(r): entry \(entry), page \(page)")
        #expect(rest.start.microseconds == (t.releases.last?.time.microseconds ?? 0) + (r.settle ?? 0), "\(r)")
    }

    /// Drags that add up to a whole page, or to half of one, are that exactly: the finger's
    /// offset is kept in whole millionths of a pixel, so a release on a page has no settle and
    /// a release half way with no speed goes up. Summed in floating point a page at a time,
    /// the first came to 1.0000000000000002 pages and settled on page 2 (pitch 60 here).
    @Test(arguments: [
        ("drag -12 0.2; drag -46 0.2; drag -2 0.2; release; hold 0.2", 1, nil),
        ("drag 12 0.2; drag 46 0.2; drag 2 0.2; release; hold 0.2", -1, nil),
        (String(repeating: "drag -6 0.04; ", count: 10) + "release; hold 0.2", 1, nil),
        (String(repeating: "drag -0.1 0.01; ", count: 600) + "release; hold 0.2", 1, nil),
        // Half a page, the finger still at the release: half up, over the duration option.
        ("drag -1.1 0.1; drag -28.9 0.1; hold 0.1; release; hold 0.2", 1, 300_000),
    ] as [(String, Int, Int?)])
    func dragsAddUpExactly(_ script: String, target: Int, settle: Int?) throws {
        let t = try Self.timeline(script, pitch: 60)
        #expect(Self.settle(t)?.length == settle, "\(script)")
        if let (q, delta, _) = Self.settle(t) {
            #expect(q == 0.5 && delta == 0.5)
        }
        let rest = try #require(t.segments.last { if case .hold = $0.motion { return true } else { return false } })
        if case let .hold(page, entry) = rest.motion {
            #expect(entry == target && page == (target + 5) % 5, "\(script)")
        }
        // The rest starts where the finger lifts, or where the settle after it ends.
        let lift = t.releases.last?.time.microseconds ?? 0
        #expect(rest.start.microseconds == lift + (settle ?? 0))
    }

    /// A swipe is a third of a page however wide the page: past three million pixels it once
    /// counted as no distance (a drag's own limit, a million pixels, applied to it).
    @Test(arguments: [300, 3_000_000, 6_000_000, 1 << 30])
    func swipesOfWidePages(_ pitch: Int) throws {
        let t = try Timeline(script: Script(parsing: "swipe next; hold 0.5"), count: 3, pitch: pitch, hold: 2,
                             moveDuration: 0.3, easing: .easeInOut)
        #expect(t.releases.first?.offset == Double(-((pitch + 1) / 3)) / 2, "the finger lifts half the swipe left of centre")
        #expect(t.frames(fps: 25).last?.position == 1)
    }

    /// A content offset exactly half way between two pixels rounds up (spec section 2), in a
    /// linear drag and a finger's rest as in a move: 7 pixels 3/14 of the way is 1.5, which
    /// floating point gave as 1.4999999999999998, x0 1 for 2; a finger resting 1.5 pixels along.
    @Test func dragOffsetsRoundHalfUp() throws {
        let drag = try Self.timeline("drag -7 0.56; hold 0.1; release; hold 0.1", pitch: 60).frames(fps: 25)
        #expect(drag.prefix(4).map(\.offset) == [0, 1, 1, 2])
        let rest = try Self.timeline("drag -1.5 0.1; hold 0.1; release", pitch: 60).frames(fps: 25)
        #expect(rest.filter { $0.phase == .drag }.last?.offset == 2)
        // A settle or an eased drag starts exactly where the gesture's offset is, 14.5 pixels
        // here, then takes the curve's floating point.
        let settle = try Self.timeline("drag -14.5 0.2 linear; hold 0.1; release", pitch: 100).frames(fps: 10)
        #expect(settle.map(\.phase) == [.drag, .drag, .drag, .settle, .settle, .settle])
        #expect(settle.map(\.offset) == [0, 7, 15, 15, nil, nil])
        let eased = try Self.timeline("drag -14.5 0.2 linear; drag -10 0.2 ease-in; release", pitch: 100).frames(fps: 10)
        #expect(eased.prefix(4).map(\.offset) == [0, 7, 15, nil])
        #expect(rest.filter { $0.phase == .settle }.dropFirst().allSatisfy { $0.offset == nil }, "a settle is no straight line")
    }

    /// The settle follows `q + delta * (1 - (1 - u)^3)` frame by frame, and leaves the finger at its speed.
    @Test func settlePathFollowsTheFormula() throws {
        let t = try Self.timeline("drag -60 0.2; release; hold 0.5")
        let frames = t.frames(fps: 50)
        let (q, delta, length) = try #require(Self.settle(t))
        #expect(length == 400_000)
        for state in frames where state.phase == .settle {
            let u = (Double(state.index) / 50 - 0.2) / 0.4
            let expected = q + delta * (1 - pow(1 - u, 3))
            #expect(abs(state.position - expected) < 1e-6, "frame \(state.index)")
        }
        let settleSegment = try #require(t.segments.first { $0.motion.phase == .settle })
        #expect(abs(settleSegment.motion.velocity(at: .zero, length: settleSegment.length) - 3) < 1e-9, "v = 0.6 / 0.2 s")
        #expect(abs(settleSegment.motion.velocity(at: settleSegment.length, length: settleSegment.length)) < 1e-12)
        #expect(frames.filter { $0.phase == .settle }.count == 20)
        #expect(frames.last?.position == 1)
    }

    /// Recentring happens only after the settle: positions run continuously through the
    /// clones, and the jump to the real page comes in the rest, on an identical picture.
    @Test func recentringOnlyAfterTheSettle() throws {
        var options = CarouselOptions()
        options.fps = 25
        options.size = PixelSize(width: 48, height: 20)
        options.script = try Script(parsing: "goto 4 0.3; hold 0.2; drag -130 0.5; hold 0.1; drag -20 0.1; release; hold 0.4; swipe prev; hold 0.4")
        let carousel = try Carousel(images: CarouselRenderTests.flatItems(4), options: options)
        var jumps = 0
        for i in 1..<carousel.frameCount {
            let a = carousel.states[i - 1], b = carousel.states[i]
            if b.jumped {
                jumps += 1
                #expect(a.phase == .hold && b.phase == .hold, "frame \(i): a jump happens only at rest")
                #expect(differingPixels(carousel.frame(index: i - 1), carousel.frame(index: i)) == 0, "frame \(i)")
            } else if a.phase != .hold || b.phase != .hold {
                #expect(abs(b.position - a.position) < 1, "frame \(i): no jump during a gesture or move")
            }
        }
        #expect(jumps == 2, "once past the last page (q > 4), once before the first")
        #expect(carousel.states.contains { $0.position > 4.5 })
    }

    /// The timer is paused by a gesture: autoplay after it starts with a full hold.
    @Test func autoplayAfterAGestureStartsWithAFullHold() throws {
        let t = try Self.timeline("swipe next; autoplay 1")
        let settleEnd = try #require(t.segments.first { $0.motion.phase == .settle }).end
        let next = try #require(t.segments.first { $0.start >= settleEnd })
        #expect(next.motion == .hold(page: 1, entry: 1) && next.length == 2)
    }

    /// Dots under a gesture: half follows round(p); start lights the target at release; end when the settle ends.
    @Test(arguments: DotsSwitch.allCases)
    func dotsUnderAGesture(_ rule: DotsSwitch) throws {
        let t = try Self.timeline("hold 0.2; drag -70 0.4; release; hold 0.4")
        for state in t.frames(fps: 25) {
            let page = rule.page(for: state, count: 5)
            switch (rule, state.phase) {
            case (.half, _): #expect(page == Int((state.position + 0.5).rounded(.down)) % 5)
            case (.start, .settle): #expect(page == 1, "frame \(state.index)")
            case (.end, .hold) where state.index > 15: #expect(page == 1, "frame \(state.index)")
            case (.start, .drag), (.end, .drag), (.end, .settle): #expect(page == 0, "frame \(state.index)")
            default: continue
            }
        }
    }

    /// The indicator's centre and alpha per frame: centred on the gesture, following the
    /// finger, fading over 0.15 s where it lifted.
    @Test func touchIndicatorPath() throws {
        var options = CarouselOptions()
        options.fps = 10
        options.size = PixelSize(width: 200, height: 100)
        options.dots.placement = .none
        options.script = try Script(parsing: "hold 0.2; drag -60 0.4; release; hold 1")
        let carousel = try Carousel(images: CarouselRenderTests.flatItems(3, width: 200, height: 100), options: options)
        let expected: [Int: TouchPoint?] = [
            1: nil,
            2: TouchPoint(x: 130, y: 50, alpha: 1), 3: TouchPoint(x: 115, y: 50, alpha: 1),
            5: TouchPoint(x: 85, y: 50, alpha: 1), 6: TouchPoint(x: 70, y: 50, alpha: 1),
            7: TouchPoint(x: 70, y: 50, alpha: 1 - 0.1 / 0.15), 8: nil,
        ]
        for (i, touch) in expected {
            let actual = carousel.touch(index: i)
            #expect(actual?.x == touch?.x && actual?.y == touch?.y, "frame \(i): \(String(describing: actual))")
            #expect(abs((actual?.alpha ?? -1) - (touch?.alpha ?? -1)) < 1e-9, "frame \(i)")
            #expect(carousel.info(index: i).touch == actual)
        }
        // Drawn above the content: the centre pixel is the fill blended by its alpha; the ring is darker.
        options.touches.mode = .none
        let bare = try Carousel(images: CarouselRenderTests.flatItems(3, width: 200, height: 100), options: options)
        for i in [3, 7] {
            let touch = try #require(carousel.touch(index: i))
            let x = Int(touch.x), y = Int(touch.y)
            let base = bare.frame(index: i)[x, y]
            let shown = carousel.frame(index: i)[x, y]
            let fill = TouchIndicator().color.over(base, coverage: touch.alpha)
            #expect(shown == fill, "frame \(i)")
            let edge = carousel.frame(index: i)[x, y - 22], under = bare.frame(index: i)[x, y - 22]
            #expect(Int(edge.r) + Int(edge.g) + Int(edge.b) < Int(under.r) + Int(under.g) + Int(under.b), "ring darkens")
        }
        #expect(differingPixels(carousel.frame(index: 8), bare.frame(index: 8)) == 0, "gone after the fade")
        #expect(FramesFolder.json(carousel).contains("\"phase\": \"drag\", \"touch\": {\"x\": 130.0, \"y\": 50.0, \"alpha\": 1.0}"))
        #expect(FramesFolder.json(carousel).contains("\"phase\": \"hold\", \"touch\": null"))
    }

    /// Options for the fading tests: 50 fps, 100x60, no dots, `duration` and `script`.
    static func fadeOptions(duration: MediaTime, script: String) throws -> CarouselOptions {
        var options = CarouselOptions()
        options.fps = 50
        options.duration = duration
        options.size = PixelSize(width: 100, height: 60)
        options.dots.placement = .none
        options.script = try Script(parsing: script)
        return options
    }

    /// A lifted finger fades for its whole 0.15 s where it lifted (spec 3b), whatever comes
    /// next: under a drag that starts sooner, and under a finger lifted after it.
    @Test func liftedFingersFadeUnderTheNext() throws {
        // An ease-out drag ends at rest: the settle takes --duration (0.1 s), so the second
        // drag starts 0.1 s after the release, while the first indicator is a third opaque.
        var options = try Self.fadeOptions(duration: 0.1, script: "drag -60 0.4 ease-out; release; drag -20 0.2; release; hold 0.3")
        let images = CarouselRenderTests.flatItems(5, width: 100, height: 60)
        let carousel = try Carousel(images: images, options: options)
        for (i, alpha) in [(25, 1 - 0.1 / 0.15), (26, 1 - 0.12 / 0.15), (27, 1 - 0.14 / 0.15)] {
            let state = carousel.states[i]
            #expect(state.phase == .drag, "frame \(i)")
            #expect(state.finger?.alpha == 1, "frame \(i)")
            #expect(state.lifted.count == 1, "frame \(i)")
            #expect(state.lifted.first?.offset == -30, "frame \(i): lifted at x = 20")
            #expect(abs((state.lifted.first?.alpha ?? 0) - alpha) < 1e-9, "frame \(i)")
            let touches = carousel.touches(index: i)
            #expect(touches.count == 2 && touches.last == carousel.touch(index: i), "frame \(i): the finger down on top")
            #expect(carousel.info(index: i).touch?.x == carousel.touch(index: i)?.x, "frame \(i): frames.json's touch is the finger down")
            #expect(carousel.pictureKey(index: i).lifted == Array(touches.prefix(1)), "frame \(i)")
        }
        #expect(carousel.states[28].lifted.isEmpty && carousel.touches(index: 28).count == 1, "faded by 0.56 s")
        // Drawn: the lifted circle's centre is its fill over the content, blended by its fade.
        options.touches.mode = .none
        let bare = try Carousel(images: images, options: options)
        for i in [25, 26, 27] {
            let lifted = try #require(carousel.touches(index: i).first)
            let base = bare.frame(index: i)[Int(lifted.x), Int(lifted.y)]
            #expect(carousel.frame(index: i)[Int(lifted.x), Int(lifted.y)]
                    == TouchIndicator().color.over(base, coverage: lifted.alpha), "frame \(i)")
        }
        #expect(differingPixels(carousel.frame(index: 28), bare.frame(index: 28)) > 0)
        // The GIF keeps the lifted circle: it lies in the frames' overlay boxes.
        let gif = try DecodedGIF([UInt8](carousel.gifData()))
        var expanded: [RGBAImage] = []
        for (frame, delay) in zip(gif.frames, gif.delays) { expanded += Array(repeating: frame, count: delay / 2) }
        for i in [25, 26, 27] {
            let lifted = try #require(carousel.touches(index: i).first)
            let exact = carousel.frame(index: i)[Int(lifted.x), Int(lifted.y)]
            let shown = expanded[i][Int(lifted.x), Int(lifted.y)]
            #expect(abs(Int(shown.r) - Int(exact.r)) <= 4 && abs(Int(shown.b) - Int(exact.b)) <= 4, "frame \(i)")
        }
    }

    /// Two fingers lifted within 0.15 s: the one lifted last is the `touch`, drawn over the
    /// first, which goes on fading where it lifted.
    @Test func twoReleasesCloseTogether() throws {
        let options = try Self.fadeOptions(duration: 0.04, script: "drag -30 0.1 ease-out; release; drag -10 0.04 ease-out; release; hold 0.3")
        let carousel = try Carousel(images: CarouselRenderTests.flatItems(5, width: 100, height: 60), options: options)
        // Released at 0.1 s (x = 35) and 0.18 s (x = 45).
        for i in 9...12 {
            let t = Double(i) / 50
            let touch = try #require(carousel.touch(index: i))
            #expect(touch.x == 45 && abs(touch.alpha - (1 - (t - 0.18) / 0.15)) < 1e-9, "frame \(i): \(touch)")
            let touches = carousel.touches(index: i)
            #expect(touches.count == 2, "frame \(i)")
            #expect(touches.first?.x == 35 && abs((touches.first?.alpha ?? 0) - (1 - (t - 0.1) / 0.15)) < 1e-9, "frame \(i)")
        }
        #expect(carousel.touches(index: 13).count == 1, "the first has faded by 0.26 s")
        #expect(carousel.info(index: 9).touch?.x == 45)
    }

    /// A drag's distance and duration are decimals as every option writes them, signs included.
    @Test func dragNumbersTakeTheOptionsForms() throws {
        #expect(try Self.timeline("drag -120 +0.3; release") == Self.timeline("drag -120 0.3; release"))
        #expect(try Self.timeline("drag +40 .25; release") == Self.timeline("drag 40 0.25; release"))
    }

    /// A swipe while the finger is down is the drag and release it stands for (spec 3b).
    @Test func swipeWithTheFingerDownIsADragAndARelease() throws {
        #expect(try Self.timeline("drag -30 0.2; swipe next") == Self.timeline("drag -30 0.2; drag -33 0.15 linear; release"))
        #expect(try Self.timeline("swipe prev 0.3") == Self.timeline("drag 33 0.3 linear; release"))
    }

    /// Steps that make no sense with the finger down, or without it, are errors naming the step.
    @Test(arguments: [
        ("drag", 1, "drag needs a distance DX in pixels (negative = towards the next page), e.g. \"drag -120 0.3\""),
        ("drag abc", 1, "\"abc\" is not a distance in pixels; expected a decimal number from -1000000 to 1000000, e.g. -120"),
        ("drag inf", 1, "\"inf\" is not a distance in pixels; expected a decimal number from -1000000 to 1000000, e.g. -120"),
        ("drag nan", 1, "\"nan\" is not a distance in pixels; expected a decimal number from -1000000 to 1000000, e.g. -120"),
        ("drag 1e400", 1, "\"1e400\" is not a distance in pixels; expected a decimal number from -1000000 to 1000000, e.g. -120"),
        ("drag 1e-308", 1, "\"1e-308\" is not a distance in pixels; expected a decimal number from -1000000 to 1000000, e.g. -120"),
        ("drag 0x10", 1, "\"0x10\" is not a distance in pixels; expected a decimal number from -1000000 to 1000000, e.g. -120"),
        ("drag 99999999999999999999", 1, "\"99999999999999999999\" is not a distance in pixels; expected a decimal number from -1000000 to 1000000, e.g. -120"),
        ("drag 1000000.5", 1, "\"1000000.5\" is not a distance in pixels; expected a decimal number from -1000000 to 1000000, e.g. -120"),
        ("hold 1; release", 2, "release with no finger down; a gesture starts with \"drag\" or \"swipe\""),
        ("drag -10; next; release", 2, "next while the finger is down; \"release\" it first"),
        ("drag -10; goto 2; release", 2, "goto while the finger is down; \"release\" it first"),
        ("drag -10; autoplay; release", 2, "autoplay while the finger is down; \"release\" it first"),
        // A swipe is `drag; release`: with the finger down it goes on, and a release after it has none to lift.
        ("drag -10; swipe next; release", 3, "release with no finger down; a gesture starts with \"drag\" or \"swipe\""),
        ("drag -10 0.2; hold 1", 2, "the script ends with the finger down; end it with \"release\""),
        ("drag -10 0; release", 1, "a drag takes time; give it a DURATION above 0 (the default is the duration option)"),
        ("swipe up", 1, "swipe needs a direction, next or prev, e.g. \"swipe next\""),
        ("release now", 1, "release takes no arguments"),
    ])
    func gestureScriptErrors(_ script: String, _ step: Int, _ reason: String) {
        do throws(CarouselError) {
            _ = try Script(parsing: script).expand()
            Issue.record("\(script) was accepted")
        } catch {
            guard case let .script(source: _, step: number, line: _, text: _, reason: message) = error else {
                Issue.record("\(script): \(error)")
                return
            }
            #expect(number == step && message == reason, "\(script): \(error)")
        }
    }

    /// Steps as Swift values, as the library writes them.
    @Test func stepsAsSwiftValues() throws {
        let written = Script(steps: [.drag(dx: -60, duration: 0.2), .release, .swipe(.next), .hold(0.5)])
        let parsed = try Script(parsing: "drag -60 0.2; release; swipe next; hold 0.5")
        #expect(written.entries.map(\.step) == parsed.entries.map(\.step))
        let a = try Timeline(script: written, count: 5, pitch: 100, hold: 2, moveDuration: 0.3, easing: .easeInOut)
        let b = try Timeline(script: parsed, count: 5, pitch: 100, hold: 2, moveDuration: 0.3, easing: .easeInOut)
        #expect(a.segments == b.segments)
    }
}

extension Script {
    /// This script's timeline over 5 pages of 100 px.
    func expand() throws(CarouselError) -> Timeline {
        try Timeline(script: self, count: 5, pitch: 100, hold: 2, moveDuration: 0.3, easing: .easeInOut)
    }
}
