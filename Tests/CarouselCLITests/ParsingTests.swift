@testable import CarouselCLI
import Carousel
import Foundation
import Testing

/// Argument parsing in process: flags to options, defaults, usage errors.
struct ParsingTests {
    func options(_ arguments: [String]) throws -> CarouselOptions {
        let command = try CarouselCommand.parseAsRoot(arguments)
        let render = try #require(command as? Render)
        return try render.arguments.options()
    }

    /// `--no-quiet` and `--no-lossless` undo a config file's `true`, as any flag overrides its
    /// key; `--quiet` and `--lossless` still set it. Before, a config's `"quiet": true` or
    /// `"lossless": true` could not be turned off for one run.
    @Test func noFlagsUndoTheConfigsTrue() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("carousel-no-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("c.json").path
        try Data("{\"quiet\": true, \"lossless\": true, \"format\": \"webp\"}".utf8).write(to: URL(fileURLWithPath: config))
        func arguments(_ flags: [String]) throws -> CarouselArguments {
            try #require(try CarouselCommand.parseAsRoot(["render"] + flags) as? Render).arguments
        }
        let fromFile = try arguments(["--config", config])
        #expect(fromFile.isQuiet)
        #expect(try fromFile.options().lossless)
        let undone = try arguments(["--config", config, "--no-quiet", "--no-lossless"])
        #expect(!undone.isQuiet)
        #expect(try !undone.options().lossless)
        #expect(try arguments(["--quiet"]).isQuiet)
        #expect(try !arguments([]).isQuiet)
        #expect(try !arguments(["--no-quiet"]).isQuiet)
        #expect(try arguments(["--lossless", "--format", "webp"]).options().lossless)
        // The last of a pair wins, as the argument parser takes it.
        #expect(try arguments(["--quiet", "--no-quiet"]).isQuiet == false)
        #expect(try arguments(["--no-quiet", "--quiet"]).isQuiet)
        // A GIF takes `--no-lossless` (it asks for what a GIF does anyway), not `--lossless`.
        #expect(CarouselCommand.execute(["render", "--no-lossless", "--quiet", "-o", folder.appendingPathComponent("a.gif").path,
                                         "--size", "32x18", "--script", "hold 0.1"]).status == 0)
        #expect(CarouselCommand.execute(["render", "--lossless", "--quiet", "-o", folder.appendingPathComponent("b.gif").path]).error
            == "--lossless: applies to WebP only, not gif")
    }

    /// A flag with an empty value (`--quiet=`, as `--quiet=$UNSET` expands) is refused as
    /// `--quiet=false` is, naming the flag, where the argument parser took it for the flag.
    /// The same text as an option's value or after `--` is left to what takes it.
    @Test func emptyFlagValuesAreRefused() {
        let never = FileManager.default.temporaryDirectory.appendingPathComponent("carousel-never-\(UUID().uuidString).gif").path
        defer { try? FileManager.default.removeItem(atPath: never) }
        for flag in ["--quiet", "--no-quiet", "--lossless", "--no-lossless"] {
            let outcome = CarouselCommand.execute(["render", flag + "=", "--size", "32x18", "--script", "hold 0.1", "-o", never])
            #expect(outcome.status == 64)
            #expect(outcome.error == "the option '\(flag)' does not take any value, but an empty one was given")
        }
        // The parser's own refusal of a value, without its full stop, as carousel's lines have none.
        let valued = CarouselCommand.execute(["render", "--quiet=false", "--size", "32x18", "--script", "hold 0.1", "-o", never])
        #expect(valued.status == 64)
        #expect(valued.error == "the option '--quiet' does not take any value, but 'false' was specified")
        #expect(CarouselCommand.emptyFlagValue(["render", "--script-file", "--quiet="]) == nil)
        #expect(CarouselCommand.emptyFlagValue(["render", "--", "--quiet="]) == nil)
        #expect(CarouselCommand.emptyFlagValue(["render", "--quiet=x"]) == nil)
        #expect(CarouselCommand.emptyFlagValue(["render", "--quiet", "--dots="]) == nil)
        #expect(!FileManager.default.fileExists(atPath: never))
    }

    @Test func defaultsAreTheSpecs() throws {
        let o = try options(["render"])
        #expect(o == CarouselOptions())
        #expect(o.fps == 25 && o.hold == 2 && o.duration == 0.3 && o.easing == .easeInOut)
        #expect(o.align == .center && o.clones == .auto && o.fit == .fill && o.background == .black)
        #expect(o.dots.placement == .overlay && o.dotsSwitch == .half && o.loop == .forever && o.colors == 256)
    }

    @Test func everyFlag() throws {
        let o = try options(["render", "a.png", "--size", "375x211", "--item-width", "343", "--spacing", "8",
                             "--align", "start", "--clones", "3", "--fit", "fit", "--background", "#102030",
                             "--script", "hold 1; next", "--hold", "1.5", "--duration", "0.5", "--easing", "ease-out",
                             "--fps", "30", "--dots", "footer", "--dots-switch", "end", "--dot-size", "6", "--dot-gap", "4",
                             "--dot-color", "#11223344", "--dot-current-color", "#FF0000", "--loop", "3",
                             "--colors", "64", "--dither", "diffusion", "-o", "out.gif"])
        #expect(o.size == PixelSize(width: 375, height: 211) && o.itemWidth == 343 && o.spacing == 8)
        #expect(o.align == .start && o.clones == .count(3) && o.fit == .fit && o.background == RGBA(r: 0x10, g: 0x20, b: 0x30))
        #expect(o.script?.entries.count == 2 && o.hold == 1.5 && o.duration == 0.5 && o.easing == .easeOut && o.fps == 30)
        #expect(o.dots.placement == .footer && o.dotsSwitch == .end && o.dots.size == 6 && o.dots.gap == 4)
        #expect(o.dots.color == RGBA(r: 0x11, g: 0x22, b: 0x33, a: 0x44) && o.dots.currentColor == RGBA(r: 255, g: 0, b: 0))
        #expect(o.loop == .plays(3) && o.colors == 64 && o.dither == .diffusion)
    }

    /// Enumerated values and duration units are read in any case, as easings, `WxH` and script
    /// steps are: `--format GIF` is `--format gif`.
    @Test func wordsAreReadInAnyCase() throws {
        let lower = ["--align", "start", "--clones", "set", "--fit", "fit", "--hold", "1.5s", "--duration", "300ms",
                     "--easing", "ease-out", "--dots", "footer", "--dots-switch", "end", "--touches", "none",
                     "--format", "webp", "--loop", "forever", "--size", "64x40", "--script", "hold 1s; next 300ms ease"]
        let mixed = ["--align", "Start", "--clones", "SET", "--fit", "Fit", "--hold", "1.5S", "--duration", "300MS",
                     "--easing", "Ease-Out", "--dots", "Footer", "--dots-switch", "END", "--touches", "None",
                     "--format", "WebP", "--loop", "Forever", "--size", "64X40", "--script", "HOLD 1S; Next 300Ms EASE"]
        let plain = try options(["render"] + lower), cased = try options(["render"] + mixed)
        #expect(plain == cased)
        #expect(plain.script?.entries.map(\.text) != cased.script?.entries.map(\.text), "each step keeps its text as written")
        #expect(cased.format == .webp && cased.dots.placement == .footer && cased.loop == .forever && cased.duration == 0.3)
        #expect(try options(["render", "--dither", "Diffusion", "--loop", "ONCE"]).dither == .diffusion)
    }

    /// Spaces and tabs around a flag's value are dropped, enumerated options' included, as the
    /// option table drops them (`frame --at`: EndToEndTests).
    @Test func spacesAroundValuesAreDropped() throws {
        let values = ["--size", "375x211", "--item-width", "343", "--spacing", "8", "--align", "start", "--clones", "3",
                      "--fit", "fit", "--background", "#102030", "--script", "hold 1; next", "--hold", "1.5",
                      "--duration", "0.5", "--easing", "ease-out", "--fps", "30", "--dots", "footer",
                      "--dots-switch", "end", "--dot-size", "6", "--dot-gap", "4", "--dot-color", "#11223344",
                      "--dot-current-color", "#FF0000", "--loop", "3", "--colors", "64", "--dither", "diffusion",
                      "--touches", "none", "--touch-size", "30", "--touch-color", "#FF000080"]
        let padded = values.map { $0.hasPrefix("--") ? $0 : " \t\($0) " }
        let plain = try options(["render"] + values), spaced = try options(["render"] + padded)
        #expect(plain == spaced)
        #expect(spaced.size == PixelSize(width: 375, height: 211) && spaced.align == .start && spaced.dither == .diffusion)
        #expect(try options(["render", "--format", " webp ", "-o", "x.webp"]).format == .webp)
    }

    /// Usage errors: exit 64 and one line naming the option.
    @Test(arguments: [
        (["render", "--fps", "60"], "--fps: must be 1...50, got 60"),
        (["render", "--fps", "0"], "--fps: must be 1...50, got 0"),
        (["render", "--fps", "abc"], "--fps: expected a whole number, got \"abc\""),
        (["render", "--size", "0x10"], "--size: width and height must be 1...65535, got 0x10"),
        (["render", "--size", "-5x10"], "--size: width and height must be 1...65535, got -5x10"),
        (["render", "--size", "100000x1"], "--size: width and height must be 1...65535, got 100000x1"),
        (["render", "--size", "640"], "--size: expected \"WxH\" in pixels, e.g. \"640x360\", got \"640\""),
        (["render", "--item-width", "0"], "--item-width: must be 1...1000000, got 0"),
        (["render", "--spacing", "-1"], "--spacing: must be 0...1000000, got -1"),
        (["render", "--hold", "-1"], "--hold: must be 0 to 3600 seconds, got -1"),
        (["render", "--duration", "3601"], "--duration: must be 0 to 3600 seconds, got 3601"),
        (["render", "--duration", "1e-308"], "--duration: expected seconds written 2, 1.5s or 300ms, got \"1e-308\""),
        (["frame", "--at", "1e-3", "-o", "x.png"], "--at: expected seconds written 2, 1.5s or 300ms, got \"1e-3\""),
        (["frame", "--at", "4000", "-o", "x.png"], "--at: must be 0 to 3600 seconds, got 4000"),
        // A value of spaces alone is shown as typed, not as the nothing trimming leaves.
        (["frame", "--at", "  ", "-o", "x.png"], "--at: expected seconds written 2, 1.5s or 300ms, got \"  \""),
        (["frame", "--at", "\t ", "-o", "x.png"], "--at: expected seconds written 2, 1.5s or 300ms, got \"\\t \""),
        (["render", "--fps", " \t"], "--fps: expected a whole number, got \" \\t\""),
        (["render", "--hold", "  "], "--hold: expected seconds written 2, 1.5s or 300ms, got \"  \""),
        (["render", "--easing", "bounce"], "--easing: expected \(Easing.accepted), got \"bounce\""),
        (["render", "--hold", "0", "--duration", "0", "--script", "autoplay 1000000000"],
         "--hold: is 0 s and so is duration, so \"autoplay 1000000000\" (step 1 of --script) would last no time"),
        (["render", "--colors", "1"], "--colors: must be 2...256, got 1"),
        // Enumerated options are refused in the option table's words, as a config file's keys are.
        (["render", "--dots", "overlays"], "--dots: expected overlay, footer or none, got \"overlays\""),
        (["render", "--dots-switch", ""], "--dots-switch: expected half, start or end, got \"\""),
        (["render", "--align", "middle"], "--align: expected start or center, got \"middle\""),
        (["render", "--fit", "cover"], "--fit: expected fill, fit or stretch, got \"cover\""),
        (["render", "--dither", "\u{1B}[31m"], "--dither: expected none, ordered or diffusion, got \"\\u{1B}[31m\""),
        (["render", "--touches", "hide"], "--touches: expected show or none, got \"hide\""),
        (["render", "--format", "GIF89a"], "--format: expected gif, webp or apng, got \"GIF89a\""),
        (["render", "--loop", "0"], "--loop: expected forever, once or a number of plays from 1 to 65536, got \"0\""),
        (["render", "--bogus"], "unknown option '--bogus'; did you mean '--dots'?"),
        // Single-letter clusters with an `h` in them printed the help and exited 0.
        (["render", "-dash.png", "-o", "x.gif"], "unknown option '-dash.png'"),
        (["render", "a.png", "-zh", "-o", "x.gif"], "unknown option '-zh'"),
        (["render", "-ho", "x.gif"], "unknown option '-ho'"),
        (["-hx"], "unknown option '-hx'"),
        (["frames", "-o", "-hh"], "-o: -hh starts with -, as an option does; write -o=-hh or -o ./-hh"),
        // A file's name that starts with a dash, after its option.
        (["render", "-o", "-dash.gif"], "-o: -dash.gif starts with -, as an option does; write -o=-dash.gif or -o ./-dash.gif"),
        (["frames", "--output", "-x"], "--output: -x starts with -, as an option does; write --output=-x or --output ./-x"),
        (["render", "--config", "-c.json"], "--config: -c.json starts with -, as an option does; write --config=-c.json or --config ./-c.json"),
        (["render", "-xyz.png", "-o", "x.gif"], "unknown option '-xyz.png'"),
        // A first argument that is no subcommand is named, not the first option after it.
        (["bogus", "imgs", "-o", "x.gif"], "unknown subcommand \"bogus\"; expected render, frame, frames or strip"),
        (["rendr", "a.png"], "unknown subcommand \"rendr\"; did you mean \"render\"?"),
        (["Frames", "-o", "out"], "unknown subcommand \"Frames\"; did you mean \"frames\"?"),
        (["banner.png", "-o", "x.gif"],
         "unknown subcommand \"banner.png\"; the subcommand comes first, e.g. carousel render banner.png -o banner.gif"),
        (["\u{1B}[31m"], "unknown subcommand \"\\u{1B}[31m\"; expected render, frame, frames or strip"),
        (["strip/", "-o", "x.png"], "unknown subcommand \"strip/\"; the subcommand comes first, e.g. carousel render strip/ -o banner.gif"),
        (["-", "a.png", "-o", "x.gif"], "unknown subcommand \"-\"; expected render, frame, frames or strip"),
        (["help", "rendr"], "unknown subcommand \"rendr\"; did you mean \"render\"?"),
        // An output that cannot be what the user means: a folder on standard output, a PNG
        // under another format's name.
        (["frames", "-o", "-"], "-o -: frames writes a folder (PNGs and frames.json); give its path"),
        (["frame", "--at", "0", "-o", "shot.gif"], "-o shot.gif: frame writes a PNG; name it .png (render writes GIF, WebP and APNG)"),
        (["strip", "-o", "docs/strip.WebP"], "-o docs/strip.WebP: strip writes a PNG; name it .png (render writes GIF, WebP and APNG)"),
        (["strip", "-o", "a.png/strip.jpeg"], "-o a.png/strip.jpeg: strip writes a PNG; name it .png (render writes GIF, WebP and APNG)"),
        (["render", "--script", "hold 1", "--script-file", "x.txt"], "--script: give either --script or --script-file, not both"),
        (["frame", "-o", "x.png"], "missing expected argument '--at <SECONDS>'"),
    ])
    func usageErrors(_ arguments: [String], _ message: String) {
        let outcome = CarouselCommand.execute(arguments + ["--quiet"])
        #expect(outcome.status == 64)
        #expect(outcome.error == message)
    }

    @Test func badScriptIsInputError() {
        let outcome = CarouselCommand.execute(["render", "--script", "hold 1; nxt", "--quiet", "-o", "/nonexistent/x.gif"])
        #expect(outcome.status == 1)
        #expect(outcome.error == "--script: step 2 \"nxt\": unknown step \"nxt\"; expected hold, next, prev, goto, autoplay, drag, release or swipe")
    }

    /// `-h` and `--help` still print the help, and a cluster with an `h` that is an option's
    /// value or comes after `--` is not an option.
    @Test func helpOnlyWhenAskedFor() {
        for arguments in [["render", "-h"], ["render", "--help"], ["-h"], ["help", "frames"]] {
            let outcome = CarouselCommand.execute(arguments)
            #expect(outcome.status == 0 && outcome.output?.contains("USAGE: carousel") == true, "\(arguments)")
        }
        #expect(CarouselCommand.helpCluster(["render", "--script", "-h", "-o", "x.gif"]) == nil)
        #expect(CarouselCommand.helpCluster(["render", "--", "-dash.png"]) == nil)
        #expect(CarouselCommand.helpCluster(["render", "-o=-h.gif"]) == nil)
        #expect(CarouselCommand.helpCluster(["render", "-o", "x.gif", "-dash.png"]) == "-dash.png")
    }

    @Test func helpListsValues() {
        let outcome = CarouselCommand.execute(["render", "--help"])
        #expect(outcome.status == 0)
        let help = (outcome.output ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for fragment in ["values: start, center", "values: fill, fit, stretch", "values: half, start, end",
                         "values: none, ordered, diffusion", "cubic-bezier(x1,y1,x2,y2)", "--config"] {
            #expect(help.contains(fragment), "help mentions \(fragment)")
        }
    }
}
