import Carousel
import CarouselTestSupport
import Testing

struct ScriptTests {
    @Test func parsesEveryStep() throws {
        let script = try Script(parsing: """
        hold 1.5   # a comment
        next; prev 300ms ease-in
        goto 3 0.5s cubic-bezier(0.1, 0.2, 0.3, 1)
        autoplay 2; next linear; autoplay
        """, isFile: true)
        #expect(script.entries.map(\.step) == [
            .hold(1.5),
            .next(duration: nil, easing: nil),
            .prev(duration: 0.3, easing: .easeIn),
            .goto(page: 3, duration: 0.5, easing: .cubicBezier(0.1, 0.2, 0.3, 1)),
            .autoplay(cycles: 2),
            .next(duration: nil, easing: .linear),
            .autoplay(cycles: 1),
        ])
        #expect(script.entries.map(\.line) == [1, 2, 2, 3, 4, 4, 4])
    }

    @Test(arguments: [("1.5", 1_500_000), ("1.5s", 1_500_000), ("300ms", 300_000), ("0", 0), ("2", 2_000_000),
                      ("1.5S", 1_500_000), ("300MS", 300_000), ("300Ms", 300_000), ("-0", 0), ("+1.5s", 1_500_000),
                      (".5", 500_000), ("2.", 2_000_000)])
    func durations(_ text: String, _ micros: Int) {
        #expect(MediaTime(parsing: text)?.microseconds == micros)
    }

    /// Times add and subtract to the microsecond.
    @Test func timesAddAndSubtract() {
        let t: MediaTime = 2.15
        #expect((t - 0.04).microseconds == 2_110_000)
        #expect((t + 0.04 - t).microseconds == 40_000)
        #expect((MediaTime.zero - 1.5).microseconds == -1_500_000)
    }

    @Test(arguments: ["-1", "-0.5", "0x10", "1_0", "٣", "1.5m", "abc", "", "s", "S", "MS", "1e3", "nan", "3600.000001", "99999999999999999999", "1.5sS"])
    func badDurations(_ text: String) {
        #expect(MediaTime(parsing: text) == nil)
    }

    /// Out of range but written as a duration, or not a duration at all: the two refusals
    /// options tell apart.
    @Test(arguments: [("-1", true), ("-0.5s", true), ("4000", true), ("3600.000001", true), ("99999999999999999999", true),
                      ("1" + String(repeating: "0", count: 400), true),
                      ("1.5m", false), ("abc", false), ("", false), ("s", false), ("-", false), ("1e3", false),
                      ("1e-308", false), ("nan", false), ("inf", false), ("--1", false)])
    func writtenDurations(_ text: String, _ written: Bool) {
        #expect(MediaTime.isWritten(text) == written)
    }

    @Test(arguments: [
        ("hold 1; nxt", "--script: step 2 \"nxt\": unknown step \"nxt\"; expected hold, next, prev, goto, autoplay, drag, release or swipe"),
        ("hold", "--script: step 1 \"hold\": hold takes one DURATION (e.g. 2, 1.5s or 300ms), got 0 arguments"),
        ("hold abc", "--script: step 1 \"hold abc\": DURATION: expected seconds written 2, 1.5s or 300ms, got \"abc\""),
        // A DURATION written as one but out of range says so, as `--duration` does.
        ("hold 5000", "--script: step 1 \"hold 5000\": DURATION: must be 0 to 3600 seconds, got \"5000\""),
        ("next -1 ease", "--script: step 1 \"next -1 ease\": DURATION: must be 0 to 3600 seconds, got \"-1\""),
        ("drag -100 4000s", "--script: step 1 \"drag -100 4000s\": DURATION: must be 0 to 3600 seconds, got \"4000s\""),
        ("swipe next 1e-3", "--script: step 1 \"swipe next 1e-3\": DURATION: expected seconds written 2, 1.5s or 300ms, got \"1e-3\""),
        ("prev 1e3", "--script: step 1 \"prev 1e3\": DURATION: expected seconds written 2, 1.5s or 300ms, got \"1e3\""),
        ("next -1e-3", "--script: step 1 \"next -1e-3\": DURATION: expected seconds written 2, 1.5s or 300ms, got \"-1e-3\""),
        ("goto 2 -1", "--script: step 1 \"goto 2 -1\": DURATION: must be 0 to 3600 seconds, got \"-1\""),
        ("swipe next 4000", "--script: step 1 \"swipe next 4000\": DURATION: must be 0 to 3600 seconds, got \"4000\""),
        ("next -x", "--script: step 1 \"next -x\": \"-x\" is not an easing; expected [DURATION] [EASING] with EASING one of \(Easing.accepted)"),
        ("next 1 bouncy", "--script: step 1 \"next 1 bouncy\": \"bouncy\" is not an easing; expected [DURATION] [EASING] with EASING one of \(Easing.accepted)"),
        ("goto zero", "--script: step 1 \"goto zero\": \"zero\" is not a page number; expected a whole number from 1"),
        // A second DURATION or EASING is one argument too many, and a DURATION after the EASING
        // out of order: not "not an easing" for a word that is one.
        ("next 0.2 linear linear", "--script: step 1 \"next 0.2 linear linear\": next takes at most one DURATION and one EASING, "
            + "in that order, got 3 arguments"),
        ("next 0.2 0.3", "--script: step 1 \"next 0.2 0.3\": next takes at most one DURATION and one EASING, in that order, got 2 arguments"),
        ("goto 2 0.2 ease ease", "--script: step 1 \"goto 2 0.2 ease ease\": goto takes a PAGE, then at most one DURATION and one EASING, "
            + "in that order, got 4 arguments"),
        ("drag -40 0.2 linear ease-in", "--script: step 1 \"drag -40 0.2 linear ease-in\": drag takes a DX, then at most one DURATION and "
            + "one EASING, in that order, got 4 arguments"),
        ("prev ease-in 0.2", "--script: step 1 \"prev ease-in 0.2\": the DURATION goes before the EASING, as in prev 0.2 ease-in"),
        ("goto 3 ease 300ms", "--script: step 1 \"goto 3 ease 300ms\": the DURATION goes before the EASING, as in goto 3 300ms ease"),
        ("next linear 5000", "--script: step 1 \"next linear 5000\": the DURATION goes before the EASING, as in next 5000 linear"),
        // A unit or a curve's values apart from what they belong to: where they belong.
        ("next 1.5 s linear", "--script: step 1 \"next 1.5 s linear\": \"s\" is not an easing; a DURATION's unit goes right after "
            + "its number, as in 1.5s"),
        ("prev 300 MS", "--script: step 1 \"prev 300 MS\": \"MS\" is not an easing; a DURATION's unit goes right after its number, as in 300MS"),
        ("next 0.5 cubic-bezier (0, 0, 1, 1)", "--script: step 1 \"next 0.5 cubic-bezier (0,0,1,1)\": \"cubic-bezier\" is not an easing; "
            + "cubic-bezier takes its values right after it, with no space, as in cubic-bezier(0,0,1,1)"),
        ("goto 2 spring (0.5,0.3)", "--script: step 1 \"goto 2 spring (0.5,0.3)\": \"spring\" is not an easing; "
            + "spring takes its values right after it, with no space, as in spring(0.5,0.3)"),
        ("autoplay 0", "--script: step 1 \"autoplay 0\": \"0\" is not a cycle count; expected a whole number from 1"),
        // A whole number past `Int` is out of range, shown as written, as an option's is.
        ("goto 18446744073709551617 0.2", "--script: step 1 \"goto 18446744073709551617 0.2\": page 18446744073709551617 does not exist; "
            + "pages are numbered from 1 to the number of pictures"),
        ("autoplay 99999999999999999999", "--script: step 1 \"autoplay 99999999999999999999\": 99999999999999999999 is more cycles "
            + "than a timeline may have"),
        ("# nothing", "--script: the script has no steps; expected e.g. \"hold 2; next\""),
    ])
    func errorsNameStepAndExpectation(_ text: String, _ message: String) {
        do {
            _ = try Script(parsing: text, source: "--script")
            Issue.record("\"\(text)\" parsed")
        } catch {
            #expect(error.description == message)
        }
    }

    /// A script made in Swift without steps is the same error as one parsed without any.
    @Test func noStepsMadeInSwift() {
        #expect(throws: CarouselError.script(source: "script", step: 0, line: 0, text: "",
                                             reason: "the script has no steps; expected e.g. \"hold 2; next\"")) {
            try Carousel(images: [RGBAImage(width: 4, height: 4, fill: .white), RGBAImage(width: 4, height: 4)],
                         options: { var o = CarouselOptions(); o.script = Script(steps: []); return o }())
        }
    }

    /// A timeline too short for a frame names its length and the least it needs as a person
    /// writes seconds, to the microsecond. Before: `lasts 1e-06 s`, `at least
    /// 0.016666666666666666 s`, `with hold 0.0 s`.
    @Test(arguments: [("drag 100 0.000001; release", 30, "the timeline lasts 0.000001 s, less than one frame at 30 fps; it needs at least 0.016667 s"),
                      ("hold 0.0000001", 50, "the timeline lasts 0 s, less than one frame at 50 fps; it needs at least 0.01 s"),
                      ("hold 0.0099", 50, "the timeline lasts 0.0099 s, less than one frame at 50 fps; it needs at least 0.01 s"),
                      ("hold 0.4", 1, "the timeline lasts 0.4 s, less than one frame at 1 fps; it needs at least 0.5 s")])
    func aTimelineTooShortIsWrittenAsAPersonWritesIt(_ text: String, _ fps: Int, _ reason: String) throws {
        var options = CarouselOptions()
        options.fps = fps
        options.script = try Script(parsing: text)
        let images = [RGBAImage(width: 4, height: 4, fill: .white), RGBAImage(width: 4, height: 4)]
        #expect(throws: CarouselError.script(source: "script", step: 0, line: 0, text: "", reason: reason)) {
            try Carousel(images: images, options: options)
        }
    }

    /// The same without a script: the options that made the timeline come first.
    @Test func optionsTooShortForAFrameAreWrittenAsAPersonWritesThem() {
        var options = CarouselOptions()
        options.fps = 50
        options.hold = 0.004
        options.duration = 0
        #expect(throws: CarouselError.invalidOption(key: .hold, reason: "with hold 0.004 s and duration 0 s the timeline lasts 0.008 s, "
                                                        + "less than one frame at 50 fps; it needs at least 0.01 s")) {
            try Carousel(images: [RGBAImage(width: 4, height: 4, fill: .white), RGBAImage(width: 4, height: 4)], options: options)
        }
    }

    @Test func fileErrorsGiveLine() {
        #expect(throws: CarouselError.script(source: "intro.txt", step: 2, line: 3, text: "wait 1",
                                             reason: "unknown step \"wait\"; expected hold, next, prev, goto, autoplay, drag, release or swipe")) {
            try Script(parsing: "hold 1\n\nwait 1", source: "intro.txt", isFile: true)
        }
    }

    /// A script saved with Windows' or classic Mac OS's line breaks, or with a byte-order mark,
    /// reads as one with `\n`: the same steps, the same line numbers, and a comment ends at the
    /// line break (it once ran on, taking the steps after it, where `\r\n` was not a break).
    @Test func everyLineBreakEndsALine() throws {
        let unix = try Script(parsing: "hold 1 # wait\nnext\n\nhold 2; prev\n", isFile: true)
        #expect(unix.entries.map(\.line) == [1, 2, 4, 4])
        for text in ["hold 1 # wait\r\nnext\r\n\r\nhold 2; prev\r\n", "hold 1 # wait\rnext\r\rhold 2; prev\r",
                     "\u{FEFF}hold 1 # wait\nnext\n\nhold 2; prev\n", "\u{FEFF}hold 1 # wait\r\nnext\r\n\r\nhold 2; prev"] {
            let script = try Script(parsing: text, isFile: true)
            #expect(script.entries.map(\.step) == unix.entries.map(\.step), "\(text.debugDescription)")
            #expect(script.entries.map(\.line) == unix.entries.map(\.line), "\(text.debugDescription)")
        }
        #expect(throws: CarouselError.script(source: "intro.txt", step: 2, line: 3, text: "wait 1",
                                             reason: "unknown step \"wait\"; expected hold, next, prev, goto, autoplay, drag, release or swipe")) {
            try Script(parsing: "hold 1\r\n\r\nwait 1\r\n", source: "intro.txt", isFile: true)
        }
        // Only those three end a line, as an editor counts lines: a form feed or U+2028 is white space.
        #expect(throws: CarouselError.script(source: "vt.txt", step: 3, line: 2, text: "nxt",
                                             reason: "unknown step \"nxt\"; expected hold, next, prev, goto, autoplay, drag, release or swipe")) {
            try Script(parsing: "hold 1\u{0C}; next\u{2028}\r\nnxt\n", source: "vt.txt", isFile: true)
        }
        // A comment runs to the end of its line, past a `;`.
        #expect(try Script(parsing: "hold 1 # then; next").entries.map(\.step) == [.hold(1)])
    }

    /// Scripts are equal when their steps are, however they were written and wherever they came from.
    @Test func scriptsWithTheSameStepsAreEqual() throws {
        #expect(try Script(parsing: "hold 1500ms; NEXT", source: "a.txt", isFile: true)
                == Script(steps: [.hold(1.5), .next()]))
        #expect(try Script(parsing: "hold 1.5; next") != Script(steps: [.hold(1.5), .prev()]))
        #expect(try Script(parsing: "hold 1.5") != Script(steps: [.hold(1.5), .hold(1.5)]))
    }

    /// A `Duration` is a `MediaTime` to the nearest microsecond and back, kept past the hour
    /// as a literal is, so a step or option built from one is refused as its text would be.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func durationsConvert() throws {
        #expect(MediaTime(.milliseconds(300)) == 0.3)
        #expect(MediaTime(.seconds(1.5)) == 1.5)
        #expect(MediaTime(.seconds(-1.5)) == MediaTime(microseconds: -1_500_000))
        #expect(MediaTime(.nanoseconds(1_499)) == MediaTime(microseconds: 1))
        #expect(MediaTime(.nanoseconds(1_500)) == MediaTime(microseconds: 2))
        #expect(MediaTime(.nanoseconds(-1_500)) == MediaTime(microseconds: -2))
        // Rounded in whole numbers: a Double would round these 18 digits up.
        #expect(MediaTime(Duration(secondsComponent: 0, attosecondsComponent: 123_456_499_999_999_999)).microseconds == 123_456)
        #expect(MediaTime(Duration(secondsComponent: 0, attosecondsComponent: 999_999_499_999_999_999)).microseconds == 999_999)
        #expect(MediaTime(Duration(secondsComponent: 2, attosecondsComponent: 999_999_500_000_000_000)).microseconds == 3_000_000)
        #expect(MediaTime(.seconds(7200)).durationRefusal == "must be 0 to 3600 seconds, got 7200")
        #expect(MediaTime(.seconds(Int64.max)) == MediaTime.literalLimit)
        #expect(MediaTime(.seconds(Int64.min)).microseconds == -MediaTime.literalLimit.microseconds)
        #expect(MediaTime(2.25).duration == .milliseconds(2250))
        var options = CarouselOptions()
        options.hold = MediaTime(.seconds(7200))
        #expect(throws: CarouselError.invalidOption(key: .hold, reason: "must be 0 to 3600 seconds, got 7200")) {
            try options.validate()
        }
    }

    /// Steps as Swift values read as a script would write them, and errors name them by number.
    @Test func stepsAsSwiftValues() throws {
        let script = Script(steps: [.hold(1.5), .next(duration: 0.4, easing: .ease), .goto(page: 9)])
        #expect(script.entries.map(\.text) == ["hold 1.5", "next 0.4 ease", "goto 9"])
        #expect(throws: CarouselError.script(source: "script", step: 3, line: 0, text: "goto 9",
                                             reason: "page 9 does not exist; expected 1...5")) {
            try Timeline(script: script, count: 5, pitch: 100, hold: 2, moveDuration: 0.3, easing: .easeInOut)
        }
    }

    /// A step's text parses back to the step, small and large values too: they are written
    /// with the point moved, never an exponent, which scripts do not take (`hold 5e-05`,
    /// `drag 1e-07 0.3` and `cubic-bezier(1e-05,0.0,1.0,1.0)` before).
    @Test func stepsWriteWhatParsesBack() throws {
        let steps: [ScriptStep] = [
            .hold(MediaTime(microseconds: 50)), .drag(dx: 0.000001, duration: MediaTime(microseconds: 1)),
            .drag(dx: -123456.000007, duration: 0.3), .next(duration: 0.00001, easing: .cubicBezier(0.00001, -0.000025, 1, 1)),
            .prev(easing: .spring(damping: 0.01, response: 99.999999)), .goto(page: 2, duration: 3600),
        ]
        #expect(steps.map(\.description) == [
            "hold 0.00005", "drag 0.000001 0.000001", "drag -123456.000007 0.3", "next 0.00001 cubic-bezier(0.00001,-0.000025,1.0,1.0)",
            "prev spring(0.01,99.999999)", "goto 2 3600.0",
        ])
        let parsed = try Script(parsing: steps.map(\.description).joined(separator: "; "))
        #expect(parsed.entries.map(\.step) == steps)
        #expect(MediaTime(microseconds: 7).description == "0.000007 s")
    }
}
