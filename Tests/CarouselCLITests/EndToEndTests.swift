import Carousel
import CarouselTestSupport
import Foundation
import Testing

/// The built binary over good and bad invocations: exit status, the error line, and the output file.
struct EndToEndTests {
    /// A bad invocation: its exit status, a fragment its one error line must contain.
    struct Bad: CustomStringConvertible, Sendable {
        let arguments: [String]
        let status: Int32
        let says: String
        var description: String { arguments.joined(separator: " ") }
    }

    static let bad: [Bad] = [
        Bad(arguments: ["render", "notes.png"], status: 1, says: "error: notes.png: Not a PNG file"),
        Bad(arguments: ["render", "corrupt.png"], status: 1, says: "error: corrupt.png: IDAT: "),
        Bad(arguments: ["render", "cut.png"], status: 1, says: "cut.png: truncated file"),
        Bad(arguments: ["render", "huge.png"], status: 1, says: "huge.png: image is 60000x60000 (3600000000 pixels), over the limit"),
        Bad(arguments: ["render", "missing.png"], status: 1, says: "missing.png: no such file or folder"),
        Bad(arguments: ["render", "empty"], status: 1, says: "empty: folder has no .png files"),
        Bad(arguments: ["render", ""], status: 1, says: "error: \"\" (an empty name): no such file or folder"),
        Bad(arguments: ["render", "imgs", "--config", ""], status: 1, says: "error: \"\" (an empty name): cannot read config file: no such file or folder"),
        Bad(arguments: ["render", "imgs", "--script-file", ""], status: 1, says: "error: \"\" (an empty name): cannot read script file"),
        Bad(arguments: ["render", "imgs", "--script-file", "imgs"], status: 1, says: "imgs: cannot read script file"),
        Bad(arguments: ["render", "imgs", "--config", "missing.json"], status: 1, says: "missing.json: cannot read config file: no such file or folder"),
        Bad(arguments: ["render", "imgs", "--config", "imgs"], status: 1, says: "error: imgs: cannot read config file: "),
        Bad(arguments: ["render", "imgs", "--config", "broken.json"], status: 1, says: "broken.json: not valid JSON"),
        // A config file's relative scriptFile is named where it was looked for: beside the config.
        Bad(arguments: ["render", "imgs", "--config", "cfg/missing.json"], status: 1, says: "error: cfg/missing.txt: cannot read script file: no such file or folder"),
        Bad(arguments: ["render", "imgs", "--config", "cfg/bad.json"], status: 1, says: "error: cfg/bad.txt: line 2, step 2 \"nxt\": unknown step"),
        Bad(arguments: ["render", "imgs", "--config", "typo.json"], status: 1, says: "typo.json: key \"itemWdth\": unknown key"),
        Bad(arguments: ["render", "imgs", "--config", "wrongtype.json"], status: 1, says: "wrongtype.json: key \"fps\": expected a whole number, got \"25\""),
        Bad(arguments: ["render", "imgs", "--script", "hold 1; jump 2"], status: 1, says: "--script: step 2 \"jump 2\": unknown step \"jump\""),
        Bad(arguments: ["render", "imgs", "--fps", "51"], status: 64, says: "--fps: must be 1...50, got 51"),
        Bad(arguments: ["render", "imgs", "--size", "0x0"], status: 64, says: "--size: width and height must be 1...65535, got 0x0"),
        Bad(arguments: ["render", "imgs", "--item-width", "-10"], status: 64, says: "--item-width: must be 1...1000000, got -10"),
        Bad(arguments: ["render", "imgs", "--item-width", "30", "--clones", "0"], status: 64, says: "--clones: 0 per side is too few"),
        Bad(arguments: ["render", "imgs", "--size", "1000x1000", "--clones", "100000"], status: 64, says: "--clones: the padded strip would be "),
        // The limit names what made the strip long: the spacing or the item width where given.
        Bad(arguments: ["render", "imgs", "--size", "40x100", "--spacing", "1000000"], status: 64,
            says: "--spacing: the padded strip would be 5000200x100 (5 items and clones, 1000040 px apart), over the limit of 268435456 pixels"),
        Bad(arguments: ["render", "imgs", "--size", "40x100", "--item-width", "1000000"], status: 64, says: "--item-width: the padded strip would be "),
        Bad(arguments: ["render", "imgs", "--size", "60000x5000"], status: 64, says: "--size: the padded strip would be "),
        Bad(arguments: ["render", "imgs", "--easing", "wobble"], status: 64, says: "--easing: expected linear"),
        Bad(arguments: ["render", "imgs", "-o", "afile/out.gif"], status: 1, says: "cannot write in"),
        Bad(arguments: ["render", "imgs", "-o", "nodir/"], status: 1, says: "error: nodir/: ends in /, as a folder's name does; give a file name"),
        Bad(arguments: ["render", "imgs", "-o", "empty/"], status: 1, says: "error: empty/: is a folder; give a file name"),
        Bad(arguments: ["render", "imgs", "-o", ".."], status: 1, says: "error: ..: is a folder; give a file name"),
        // The folder that is missing named as written, not as an absolute path.
        Bad(arguments: ["frames", "imgs", "-o", "no/such/frames"], status: 1, says: "error: no/such/frames: cannot write in no/such: no such folder"),
        Bad(arguments: ["frame", "imgs", "--at", "99", "-o", "afile"], status: 64, says: "--at: must be in 0 ..< "),
        // The value as written, unit and all.
        Bad(arguments: ["frame", "imgs", "--at", " 99s", "-o", "afile"], status: 64, says: "(the times a frame is shown at), got 99s"),
        Bad(arguments: ["frame", "imgs", "--at", "1", "-o", "keep.gif"], status: 64, says: "-o keep.gif: frame writes a PNG; name it .png"),
        Bad(arguments: ["render", "imgs", "--format", "bmp"], status: 64, says: "--format: expected gif, webp or apng, got \"bmp\""),
        Bad(arguments: ["render", "imgs", "--quality", "101", "-o", "x.webp"], status: 64, says: "--quality: must be 0...100, got 101"),
        Bad(arguments: ["render", "imgs", "--lossless", "-o", "x.gif"], status: 64, says: "--lossless: applies to WebP only, not gif"),
        Bad(arguments: ["render", "imgs", "-o", "-"], status: 64, says: "-o -: give --format gif, webp or apng for standard output"),
        Bad(arguments: ["render", "imgs", "--colors", "16", "-o", "x.webp"], status: 64, says: "--colors: applies to GIF only, not webp"),
        Bad(arguments: ["render", "imgs", "--loop", "65536", "-o", "x.webp"], status: 64, says: "--loop: a WebP plays at most 65535 times (its loop count is 16 bits), got 65536"),
        Bad(arguments: ["render", "imgs", "--dither", "none", "-o", "x.apng"], status: 64, says: "--dither: applies to GIF only, not apng"),
        Bad(arguments: ["render", "imgs", "--dot-size", "0"], status: 64, says: "--dot-size: must be above 0 and at most 1000, got 0"),
        Bad(arguments: ["render", "imgs", "--dot-gap", "-1"], status: 64, says: "--dot-gap: must be 0...1000, got -1"),
        Bad(arguments: ["render", "imgs", "--touch-size", "1000.5"], status: 64, says: "--touch-size: must be above 0 and at most 1000, got 1000.5"),
        Bad(arguments: ["render", "imgs", "-o", "x.bmp"], status: 64, says: "-o x.bmp: unknown extension; use .gif, .webp, .apng or .png"),
        Bad(arguments: ["render", "imgs", "--script", "hold 1; drag"], status: 1, says: "--script: step 2 \"drag\": drag needs a distance DX"),
        Bad(arguments: ["render", "imgs", "--script", "drag far; release"], status: 1, says: "--script: step 1 \"drag far; release\"".replacingOccurrences(of: "; release", with: "") + ": \"far\" is not a distance in pixels"),
        Bad(arguments: ["render", "imgs", "--script", "drag inf; release"], status: 1, says: "step 1 \"drag inf\": \"inf\" is not a distance in pixels"),
        Bad(arguments: ["render", "imgs", "--script", "hold 1; release"], status: 1, says: "step 2 \"release\": release with no finger down"),
        Bad(arguments: ["render", "imgs", "--script", "drag -20 0.2; next; release"], status: 1, says: "step 2 \"next\": next while the finger is down"),
        Bad(arguments: ["render", "imgs", "--script", "hold 1; drag -20 0.2"], status: 1, says: "step 2 \"drag -20 0.2\": the script ends with the finger down"),
    ]

    static func prepare() throws -> Workspace {
        let w = try Workspace()
        try PNGBytes.headerOnly(width: 60000, height: 60000).write(to: w.url.appendingPathComponent("huge.png"))
        try Data("{\"fps\": 25,".utf8).write(to: w.url.appendingPathComponent("broken.json"))
        try Data("{\"itemWdth\": 30}".utf8).write(to: w.url.appendingPathComponent("typo.json"))
        try Data("{\"fps\": \"25\"}".utf8).write(to: w.url.appendingPathComponent("wrongtype.json"))
        // Config files in a folder of their own, naming script files beside them.
        try FileManager.default.createDirectory(at: w.url.appendingPathComponent("cfg"), withIntermediateDirectories: true)
        try Data("{\"scriptFile\": \"missing.txt\"}".utf8).write(to: w.url.appendingPathComponent("cfg/missing.json"))
        try Data("{\"scriptFile\": \"bad.txt\"}".utf8).write(to: w.url.appendingPathComponent("cfg/bad.json"))
        try Data("hold 1\r\nnxt\r\n".utf8).write(to: w.url.appendingPathComponent("cfg/bad.txt"))
        return w
    }

    @Test(arguments: bad)
    func badInvocation(_ bad: Bad) throws {
        let w = try Self.prepare()
        defer { w.remove() }
        let before = w.data("keep.gif")
        let result = try CLI.run(bad.arguments + ["-o", "keep.gif"].filter { _ in !bad.arguments.contains("-o") }, in: w.url)
        #expect(result.status == bad.status, "\(bad): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(result.stderr)")
        #expect(lines.first?.hasPrefix("error: ") == true)
        #expect(result.stderr.contains(bad.says), "\(bad): \(result.stderr)")
        #expect(w.data("keep.gif") == before, "an existing output is untouched")
        #expect(w.leftovers.isEmpty, "no temporary files left: \(w.leftovers)")
        #expect(!result.stderr.contains("Fatal error") && result.status < 128)
    }

    @Test func rendersFolderInNaturalOrder() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        let result = try CLI.run(["render", "imgs", "-o", "out.gif"], in: w.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("out.gif: 173 frames, 6.92 s, "), "summary: \(result.stderr)")
        let gif = try DecodedGIF([UInt8](try #require(w.data("out.gif"))))
        #expect(gif.version == "GIF89a" && gif.loopCount == 0 && gif.width == 48 && gif.height == 24)
        let strip = try CLI.run(["strip", "imgs", "-o", "strip.png", "--quiet"], in: w.url)
        #expect(strip.status == 0 && strip.stderr.isEmpty)
        let image = try PNGCodec.decode(try #require(w.data("strip.png")))
        #expect(image.width == 5 * 48)
        for (slot, k) in [(0, 10), (1, 1), (2, 2), (3, 10), (4, 1)] {
            #expect(differingPixels(image.cropped(x: slot * 48, width: 48, height: 24), Workspace.image(k)) == 0, "slot \(slot) is \(k).png")
        }
    }

    /// A path that starts with `~` (quoted in a shell, so not expanded there) is a folder or
    /// file of that name in the working directory, as `ls '~x'` finds it, not a home folder.
    @Test func aTildeIsPartOfTheName() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        try FileManager.default.copyItem(atPath: w.path("imgs"), toPath: w.path("~"))
        try FileManager.default.copyItem(atPath: w.path("imgs"), toPath: w.path("~root"))
        try FileManager.default.copyItem(atPath: w.path("imgs/1.png"), toPath: w.path("~1.png"))
        let reference = try CLI.run(["strip", "imgs", "imgs/1.png", "-o", "reference.png", "--quiet"], in: w.url)
        try #require(reference.status == 0, "\(reference.stderr)")
        for (folder, file) in [("~", "~1.png"), ("~root", "~root/1.png"), ("~/", "~/1.png")] {
            let result = try CLI.run(["strip", folder, file, "-o", "tilde.png", "--quiet"], in: w.url)
            #expect(result.status == 0, "\(folder): \(result.stderr)")
            #expect(w.data("tilde.png") == w.data("reference.png"), "\(folder) \(file)")
        }
        // Errors name a missing path as given, and a file that was read from `./`.
        let missing = try CLI.run(["render", "~nobody/1.png", "-o", "out.gif"], in: w.url)
        #expect(missing.stderr == "error: ~nobody/1.png: no such file or folder\n")
        try FileManager.default.copyItem(atPath: w.path("notes.png"), toPath: w.path("~notes.png"))
        let text = try CLI.run(["render", "~notes.png", "-o", "out.gif"], in: w.url)
        #expect(text.stderr == "error: ./~notes.png: Not a PNG file\n")
    }

    /// A path through `..` after a symbolic link to a folder reads what `cat` reads: the file
    /// beside the link's target, not the one beside the link (Foundation's URL takes `..` out
    /// with the name before it, as text), given as a file and as a folder.
    @Test func aPathThroughALinkAndDotDotReadsWhatTheKernelReads() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        try FileManager.default.createDirectory(atPath: w.path("real/sub"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: w.path("imgs/1.png"), toPath: w.path("real/pic.png"))
        try FileManager.default.copyItem(atPath: w.path("imgs/2.png"), toPath: w.path("pic.png"))
        try FileManager.default.createSymbolicLink(atPath: w.path("link"), withDestinationPath: "real/sub")
        let reference = try CLI.run(["strip", "real/pic.png", "real/pic.png", "-o", "reference.png", "--quiet"], in: w.url)
        try #require(reference.status == 0, "\(reference.stderr)")
        let result = try CLI.run(["strip", "link/../pic.png", "link/..", "-o", "through.png", "--quiet"], in: w.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(w.data("through.png") == w.data("reference.png"))
        // Errors name the path as given.
        try FileManager.default.copyItem(atPath: w.path("notes.png"), toPath: w.path("real/notes.png"))
        let text = try CLI.run(["render", "link/../notes.png", "-o", "out.gif"], in: w.url)
        #expect(text.stderr == "error: link/../notes.png: Not a PNG file\n")
    }

    /// A relative image path is read under a working directory of any length: past about a
    /// thousand bytes, Foundation could not find it and every image was refused as `not a file URL`.
    @Test func relativePathsAreReadUnderALongWorkingDirectory() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        let deep = (1...6).map { _ in String(repeating: "d", count: 200) }.joined(separator: "/")
        // Made by the shell: FileManager's copy, too, fails at such a length.
        let made = try CLI.run(shell: "mkdir -p \(deep)/imgs && cp imgs/1.png imgs/2.png \(deep)/imgs/", in: w.url)
        try #require(made.status == 0, "\(made.stderr)")
        let here = w.url.appendingPathComponent(deep)
        try #require(here.path.utf8.count > 1200)
        let result = try CLI.run(["strip", "imgs/1.png", "imgs", "-o", "deep.png", "--quiet"], in: here)
        #expect(result.status == 0, "\(result.stderr)")
        let reference = try CLI.run(["strip", "imgs/1.png", "imgs/1.png", "imgs/2.png", "-o", "reference.png", "--quiet"], in: w.url)
        try #require(reference.status == 0, "\(reference.stderr)")
        #expect(w.data(deep + "/deep.png") == w.data("reference.png"))
        let missing = try CLI.run(["strip", "imgs/9.png", "-o", "missing.png"], in: here)
        #expect(missing.status == 1 && missing.stderr == "error: imgs/9.png: no such file or folder\n")
    }

    /// Past PATH_MAX (4,096 bytes on Linux) the system refuses a path whole, so every image
    /// path joined to a working directory that deep was refused as `the name is too long`:
    /// there, a relative path is read as given.
    @Test(.enabled(if: CLI.hasBash, "needs /bin/bash")) func relativePathsAreReadUnderAWorkingDirectoryPastPathMax() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        let name = String(repeating: "d", count: 250)
        // Made and entered a folder at a time (a path this long is refused whole), and removed
        // by `rm`, which FileManager cannot do at this depth.
        let line = """
            top=$PWD
            for i in $(seq 21); do mkdir \(name) && cd \(name) || exit 9; done
            [ "$(pwd | wc -c)" -gt 5000 ] || exit 8
            mkdir imgs && cp "$top/imgs/1.png" "$top/imgs/2.png" imgs/ || exit 7
            "$0" strip imgs/1.png imgs -o "$top/deep.png" --quiet; status=$?
            cd "$top" && rm -rf \(name)
            exit $status
            """
        let result = try CLI.run(shell: line, with: "/bin/bash", in: w.url)
        #expect(result.status == 0, "\(result.stderr)")
        let reference = try CLI.run(["strip", "imgs/1.png", "imgs/1.png", "imgs/2.png", "-o", "reference.png", "--quiet"], in: w.url)
        try #require(reference.status == 0, "\(reference.stderr)")
        #expect(w.data("deep.png") != nil && w.data("deep.png") == w.data("reference.png"))
    }

    @Test func writesToStdout() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        let result = try CLI.run(["render", "imgs", "-o", "-", "--format", "gif", "--quiet"], in: w.url)
        #expect(result.status == 0)
        #expect(result.stdout.starts(with: Array("GIF89a".utf8)))
        #expect(try DecodedGIF([UInt8](result.stdout)).frames.count > 1)
        #expect(!w.exists("-"))
        let file = try CLI.run(["render", "imgs", "-o", "file.gif", "--quiet"], in: w.url)
        #expect(file.status == 0 && w.data("file.gif") == result.stdout)
        // A name without an extension takes GIF, the default: /dev/stdout and a plain name.
        let device = try CLI.run(["render", "imgs", "-o", "/dev/stdout", "--quiet"], in: w.url)
        #expect(device.status == 0 && device.stdout == result.stdout, "\(device.stderr)")
        let plain = try CLI.run(["render", "imgs", "-o", "banner", "--quiet"], in: w.url)
        #expect(plain.status == 0 && w.data("banner") == result.stdout, "\(plain.stderr)")
    }

    /// A reader that closes the pipe early (`| head -c 6`) ends the render with one line
    /// and exit 1, as any failed write does, not with SIGPIPE (status 141, nothing said).
    @Test func closedPipeIsOneLine() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        let binary = try #require(CLI.binary)
        let script = "'\(binary.path)' render -o - --format gif --quiet 2>err.txt | head -c 6 > head.txt; echo ${PIPESTATUS[0]} > status.txt"
        let shell = try Subprocess.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script], in: w.url, timeout: 300)
        #expect(shell.status == 0)
        let status = String(decoding: try #require(w.data("status.txt")), as: UTF8.self)
        let stderr = String(decoding: try #require(w.data("err.txt")), as: UTF8.self)
        #expect(status == "1\n", "status \(status), stderr \(stderr)")
        #expect(stderr == "error: <stdout>: broken pipe\n")
        #expect(w.data("head.txt") == Data("GIF89a".utf8))
    }

    @Test func sampleImagesFromAnyDirectory() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        let result = try CLI.run(["strip", "-o", "samples.png", "--quiet"], in: w.url.appendingPathComponent("empty"))
        #expect(result.status == 0, "\(result.stderr)")
        let strip = try PNGCodec.decode(try #require(w.data("empty/samples.png")))
        #expect(strip.width == 7 * 640 && strip.height == 360)
    }

    /// The executable carries the sample banners: a copy of it in a folder of its own, with
    /// no resource bundle beside it, renders them; and on Linux it needs FoundationEssentials
    /// only, not Foundation (whose libraries and ICU data take milliseconds to load).
    @Test func copiedBinaryRendersTheSamples() throws {
        let w = try Workspace()
        defer { w.remove() }
        let built = try #require(CLI.binary)
        let copy = w.url.appendingPathComponent("bin/carousel")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: built, to: copy)
        let result = try Subprocess.run(copy, ["strip", "-o", "samples.png", "--quiet"], in: w.url)
        #expect(result.status == 0, "\(result.stderr)")
        let strip = try PNGCodec.decode(try #require(w.data("samples.png")))
        #expect(strip.width == 7 * 640 && strip.height == 360)
        // A copy in the build folder's tree would still find a bundle by its absolute path:
        // the executable must not name one at all.
        let binary = try Data(contentsOf: built)
        #expect(binary.range(of: Data("CarouselSamples.resources".utf8)) == nil, "the executable looks for a resource bundle")
        #if os(Linux)
        #expect(binary.range(of: Data("libFoundation.so\u{0}".utf8)) == nil, "the executable names libFoundation.so")
        #expect(binary.range(of: Data("libFoundationEssentials.so\u{0}".utf8)) != nil, "the search reads the library names")
        #endif
    }

    /// `frames` writes exactly the pictures `frame --at` gives, and frames.json describes them.
    @Test func framesMatchFrameAt() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        let common = ["imgs", "--script", "hold 0.2; next 0.4; hold 0.2", "--fps", "10", "--quiet"]
        #expect(try CLI.run(["frames"] + common + ["-o", "out"], in: w.url).status == 0)
        let json = try JSONSerialization.jsonObject(with: try #require(w.data("out/frames.json"))) as? [String: Any]
        let frames = try #require(json?["frames"] as? [[String: Any]])
        #expect(frames.count == 8)
        #expect(frames.map { $0["delay"] as? Int } == Array(repeating: 10, count: 8))
        // ease-in-out at u = 0.25, 0.5, 0.75 is 0.1292, 0.5, 0.8708 of the 48 px pitch.
        #expect(frames.map { $0["x0"] as? Int } == [0, 0, 0, 6, 24, 42, 48, 48])
        #expect(frames.map { $0["page"] as? Int } == [0, 0, 0, 0, 1, 1, 1, 1])
        let names = try FileManager.default.contentsOfDirectory(atPath: w.path("out")).sorted()
        #expect(names == (0..<8).map { String(format: "frame-%05d.png", $0) } + ["frames.json"])
        #expect(try CLI.run(["frame"] + common + ["--at", "0.45", "-o", "f4.png"], in: w.url).status == 0)
        #expect(try PNGCodec.decode(try #require(w.data("f4.png"))) == PNGCodec.decode(try #require(w.data("out/frame-00004.png"))))
        // Spaces around the time are dropped, as around every option's value.
        #expect(try CLI.run(["frame"] + common + ["--at", " 450ms\t", "-o", "f4b.png"], in: w.url).status == 0)
        #expect(w.data("f4b.png") == w.data("f4.png"))
        // A time just before the end that rounds to it, read to the microsecond, is the last
        // frame's; the end itself is past the timeline. Before, 0.7999999 was refused as
        // outside `0 ..< 0.8`.
        for at in ["0.7999999", "799.9999ms"] {
            let last = try CLI.run(["frame"] + common.dropLast() + ["--at", at, "-o", "f7.png"], in: w.url)
            #expect(last.status == 0 && last.stderr.hasPrefix("f7.png: frame 7 of 8,"), "\(at): \(last.stderr)")
            #expect(try PNGCodec.decode(try #require(w.data("f7.png"))) == PNGCodec.decode(try #require(w.data("out/frame-00007.png"))))
        }
        let end = try CLI.run(["frame"] + common + ["--at", "0.8", "-o", "f8.png"], in: w.url)
        #expect(end.status == 64 && end.stderr == "error: --at: must be in 0 ..< 0.8 seconds (the times a frame is shown at), got 0.8\n")
        // Times the last frame is shown at past the script's end give it: `hold 1.6` at 1 fps
        // makes two frames, the second shown until 2 s. Before, 1.7 was refused as past 1.6.
        let late = ["imgs", "--size", "32x18", "--fps", "1", "--script", "hold 1.6", "--quiet"]
        #expect(try CLI.run(["frame"] + late + ["--at", "1.7", "-o", "late.png"], in: w.url).status == 0)
        #expect(try CLI.run(["frame"] + late + ["--at", "1", "-o", "one.png"], in: w.url).status == 0)
        #expect(w.data("late.png") != nil && w.data("late.png") == w.data("one.png"))
        let past = try CLI.run(["frame"] + late + ["--at", "2", "-o", "past.png"], in: w.url)
        #expect(past.status == 64 && past.stderr == "error: --at: must be in 0 ..< 2.0 seconds (the times a frame is shown at), got 2\n")
        // A second run replaces the old frames folder; a folder with other files is refused.
        #expect(try CLI.run(["frames"] + common + ["-o", "out"], in: w.url).status == 0)
        let refused = try CLI.run(["frames"] + common + ["-o", "imgs"], in: w.url)
        #expect(refused.status == 1 && refused.stderr.contains("imgs: folder holds other files"))
        #expect(w.exists("imgs/10.png"))
    }

    /// Each `time` of `frames.json`, as printed, given to `frame --at` writes that frame, at a
    /// rate whose frames start between two microseconds (7 fps: frame 10 at 1.4285714... s).
    @Test func framesJSONTimesGiveTheirFrames() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        let common = ["imgs", "--size", "32x18", "--hold", "0.5", "--duration", "0.3", "--fps", "7"]
        #expect(try CLI.run(["frames"] + common + ["--quiet", "-o", "out"], in: w.url).status == 0)
        let json = try #require(w.data("out/frames.json").map { String(decoding: $0, as: UTF8.self) })
        let times = json.split(separator: "\n").compactMap { line -> String? in
            guard let at = line.range(of: "\"time\": ") else { return nil }
            return String(line[at.upperBound...].prefix { $0 != "," })
        }
        #expect(times.count > 10 && times[10] == "1.4285714285714286", "\(times)")
        for (i, time) in times.enumerated() {
            let result = try CLI.run(["frame"] + common + ["--at", time, "-o", "f.png"], in: w.url)
            #expect(result.status == 0 && result.stderr.hasPrefix("f.png: frame \(i) of \(times.count),"), "\(time): \(result.stderr)")
        }
    }

    /// An output that is one of the files the run reads (an input image by name, through a
    /// symbolic link or a hard link, as a file or from a folder; the config file; the script
    /// file) is refused before anything is written, and the file stays as it was.
    @Test func outputThatIsAnInputIsRefused() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        try FileManager.default.createSymbolicLink(atPath: w.path("link.png"), withDestinationPath: "imgs/2.png")
        try FileManager.default.linkItem(atPath: w.path("imgs/10.png"), toPath: w.path("hard.png"))
        try Data("{\"fps\": 10}".utf8).write(to: w.url.appendingPathComponent("keep.json"))
        try Data("hold 1; next".utf8).write(to: w.url.appendingPathComponent("keep.txt"))
        try Data("{\"scriptFile\": \"keep.txt\"}".utf8).write(to: w.url.appendingPathComponent("cfg/script.json"))
        try Data("hold 1; next".utf8).write(to: w.url.appendingPathComponent("cfg/keep.txt"))
        let before = try #require(w.data("imgs/2.png"))
        let cases: [([String], String)] = [
            (["render", "imgs/1.png", "imgs/2.png", "-o", "imgs/2.png"], "-o imgs/2.png: is the input image imgs/2.png; give another output"),
            (["render", "imgs", "-o", "link.png"], "-o link.png: is the input image imgs/2.png; give another output"),
            (["frame", "imgs", "--at", "0", "-o", "./imgs/2.png"], "-o ./imgs/2.png: is the input image imgs/2.png; give another output"),
            (["strip", "imgs/1.png", "imgs/10.png", "-o", "hard.png"], "-o hard.png: is the input image imgs/10.png; give another output"),
            // The other files a run reads are inputs too.
            (["strip", "imgs", "--config", "keep.json", "-o", "keep.json"], "-o keep.json: is the config file keep.json; give another output"),
            (["frame", "--script-file", "keep.txt", "--at", "0", "-o", "./keep.txt"], "-o ./keep.txt: is the script file keep.txt; give another output"),
            (["strip", "--config", "cfg/script.json", "-o", "cfg/keep.txt"], "-o cfg/keep.txt: is the script file cfg/keep.txt; give another output"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(arguments + ["--quiet"], in: w.url)
            #expect(result.status == 64 && result.stderr == "error: \(message)\n", "\(arguments): \(result.stderr)")
        }
        #expect(w.data("imgs/2.png") == before)
        #expect(w.data("keep.json") == Data("{\"fps\": 10}".utf8) && w.data("keep.txt") == Data("hold 1; next".utf8))
        #expect(w.data("cfg/keep.txt") == Data("hold 1; next".utf8))
        #expect(w.leftovers.isEmpty, "no temporary files left: \(w.leftovers)")
        // Another file in the images' folder is written as before.
        #expect(try CLI.run(["strip", "imgs/1.png", "-o", "imgs/strip.png", "--quiet"], in: w.url).status == 0)
    }

    /// A frames folder holding one of the run's inputs (a previous run's frames read back) is
    /// refused before anything is written, the folder as it was: the frames replace the
    /// folder as a whole. Before, the run replaced it, exit 0, and the inputs were gone.
    @Test func framesFolderHoldingAnInputIsRefused() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        #expect(try CLI.run(["frames", "imgs", "--hold", "0.2", "-o", "fr", "--quiet"], in: w.url).status == 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: w.path("fr")).sorted()
        let cases: [([String], String)] = [
            (["fr/frame-00000.png", "fr/frame-00002.png", "-o", "fr"], "-o fr: holds the input image fr/frame-00000.png"),
            (["fr", "-o", "./fr/"], "-o ./fr/: holds the input image fr/frame-00000.png"),
            (["imgs", "fr/frame-00001.png", "-o", "fr"], "-o fr: holds the input image fr/frame-00001.png"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(["frames"] + arguments + ["--quiet"], in: w.url)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr == "error: \(message), and the frames replace the folder; give another folder\n")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: w.path("fr")).sorted() == before)
        #expect(w.leftovers.isEmpty, "no temporary files left: \(w.leftovers)")
        // The same frames read back into another folder are written.
        #expect(try CLI.run(["frames", "fr/frame-00000.png", "fr/frame-00002.png", "-o", "fr2", "--quiet"], in: w.url).status == 0)
    }

    /// Standard output that is one of the files the run reads (`-o -` with `>> a.png`, or
    /// `1<> a.png`, which writes over it from its start) is refused as `-o a.png` is, the file
    /// as it was; after `> a.png`, which the shell has emptied, the refusal names it too rather
    /// than the empty picture. Before, `-o -` wrote into the file, exit 0, where `-o
    /// /dev/stdout` was refused.
    @Test func standardOutputThatIsAnInputIsRefused() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        let binary = try #require(CLI.binary)
        try Data("hold 1; next".utf8).write(to: w.url.appendingPathComponent("keep.txt"))
        let before = try #require(w.data("imgs/2.png"))
        let cases: [([String], String, String)] = [
            (["render", "imgs/1.png", "imgs/2.png", "--format", "gif"], ">> imgs/2.png", "the input image imgs/2.png"),
            (["frame", "imgs", "--at", "0"], "1<> imgs/2.png", "the input image imgs/2.png"),
            (["strip", "imgs"], ">> imgs/2.png", "the input image imgs/2.png"),
            (["render", "imgs/1.png", "--script-file", "keep.txt", "--format", "gif"], ">> keep.txt", "the script file keep.txt"),
            (["frame", "imgs", "--at", "0"], "/dev/stdout >> imgs/2.png", "the input image imgs/2.png"),
        ]
        for (arguments, redirect, what) in cases {
            // `/dev/stdout` in the redirect is the output's name, then the shell's redirect.
            let (output, shellRedirect) = redirect.hasPrefix("/dev/stdout ") ? ("/dev/stdout", String(redirect.dropFirst(12))) : ("-", redirect)
            let shell = "\"$0\" " + (arguments + ["-o", output, "--quiet"]).joined(separator: " ") + " " + shellRedirect
            let result = try Subprocess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", shell, binary.path], in: w.url)
            #expect(result.status == 64 && result.stderr == "error: -o \(output): is \(what); give another output\n", "\(shell): \(result.stderr)")
        }
        #expect(w.data("imgs/2.png") == before)
        #expect(w.data("keep.txt") == Data("hold 1; next".utf8))
        // Emptied by the shell before the run: still named as the input.
        let emptied = try Subprocess.run(URL(fileURLWithPath: "/bin/sh"),
                                         ["-c", "\"$0\" strip imgs/1.png imgs/2.png -o - --quiet > imgs/2.png", binary.path], in: w.url)
        #expect(emptied.status == 64 && emptied.stderr == "error: -o -: is the input image imgs/2.png; give another output\n")
        #expect(w.leftovers.isEmpty, "no temporary files left: \(w.leftovers)")
    }

    /// A config file's GIF keys do not stop it serving a WebP or APNG render, where the same
    /// options given as flags are refused; the frame commands take every option, so one set
    /// describes the animation for `render` and `frames` alike.
    @Test func gifKeysServeOtherFormats() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        try Data("{\"size\": \"40x24\", \"itemWidth\": 30, \"colors\": 16, \"dither\": \"none\", \"quiet\": true}".utf8)
            .write(to: w.url.appendingPathComponent("g.json"))
        let webp = try CLI.run(["render", "imgs", "--config", "g.json", "-o", "a.webp"], in: w.url)
        #expect(webp.status == 0 && webp.stderr.isEmpty, "\(webp.stderr)")
        let decodedWebP = try DecodedWebP(try #require(w.data("a.webp")))
        #expect(decodedWebP.width == 40 && decodedWebP.height == 24)
        let apng = try CLI.run(["render", "imgs", "--config", "g.json", "-o", "a.apng"], in: w.url)
        #expect(apng.status == 0 && apng.stderr.isEmpty, "\(apng.stderr)")
        let decodedAPNG = try APNGDecoder(try #require(w.data("a.apng")))
        #expect(decodedAPNG.width == 40 && decodedAPNG.height == 24)
        let frames = try CLI.run(["frames", "imgs", "--size", "40x24", "--item-width", "30", "--colors", "16",
                                  "--dither", "none", "--loop", "2", "--quiet", "-o", "exact"], in: w.url)
        #expect(frames.status == 0 && frames.stderr.isEmpty, "\(frames.stderr)")
        // The frames are the APNG's timeline, at the default 25 fps.
        let json = try JSONSerialization.jsonObject(with: try #require(w.data("exact/frames.json"))) as? [String: Any]
        let listed = try #require(json?["frames"] as? [[String: Any]])
        let shown = decodedAPNG.delays.reduce(0) { $0 + $1.numerator * 25 / $1.denominator }
        #expect(listed.count == shown && shown > 25, "\(listed.count) frames listed, \(shown) in the APNG")
    }

    /// A config file and the equivalent flags give byte-identical output; flags override the file.
    @Test func configEqualsFlags() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        let config = """
        {"size": "40x24", "itemWidth": 30, "spacing": 4, "align": "center", "clones": "auto", "fit": "fit",
         "background": "#203040", "script": "hold 0.3; next 0.5 ease; prev", "hold": 1, "duration": 0.4,
         "easing": "linear", "fps": 20, "dots": "footer", "dotsSwitch": "start", "dotSize": 5, "dotGap": 3,
         "dotColor": "#112233", "dotCurrentColor": "#FFEE00", "loop": 2, "colors": 128, "dither": "none", "quiet": true}
        """
        try Data(config.utf8).write(to: w.url.appendingPathComponent("c.json"))
        let flags = ["--size", "40x24", "--item-width", "30", "--spacing", "4", "--align", "center", "--clones", "auto",
                     "--fit", "fit", "--background", "#203040", "--script", "hold 0.3; next 0.5 ease; prev", "--hold", "1",
                     "--duration", "0.4", "--easing", "linear", "--fps", "20", "--dots", "footer", "--dots-switch", "start",
                     "--dot-size", "5", "--dot-gap", "3", "--dot-color", "#112233", "--dot-current-color", "#FFEE00",
                     "--loop", "2", "--colors", "128", "--dither", "none", "--quiet"]
        let a = try CLI.run(["render", "imgs", "--config", "c.json", "-o", "a.gif"], in: w.url)
        let b = try CLI.run(["render", "imgs"] + flags + ["-o", "b.gif"], in: w.url)
        #expect(a.status == 0 && b.status == 0 && a.stderr.isEmpty)
        #expect(w.data("a.gif") != nil && w.data("a.gif") == w.data("b.gif"))
        let gif = try DecodedGIF([UInt8](try #require(w.data("a.gif"))))
        #expect(gif.height == 24 + 32 && gif.loopCount == 1)
        let overridden = try CLI.run(["render", "imgs", "--config", "c.json", "--loop", "forever", "-o", "c.gif"], in: w.url)
        #expect(overridden.status == 0)
        #expect(try DecodedGIF([UInt8](try #require(w.data("c.gif")))).loopCount == 0)
    }

    /// A flag of an either-or pair overrides the config file's other half, as flags override
    /// the file: `--quality 50` over `"lossless": true` is the lossy WebP of `--quality 50`,
    /// `--lossless` over `"quality": 50` the lossless one (both refused the flag before).
    /// Both halves as flags are still refused, and so is an empty `scriptFile`, as no file
    /// rather than as the config's folder.
    @Test func flagsOverrideTheConfigsOtherHalf() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        try FileManager.default.createDirectory(at: w.url.appendingPathComponent("cfg"), withIntermediateDirectories: true)
        try Data("{\"lossless\": true}".utf8).write(to: w.url.appendingPathComponent("lossless.json"))
        try Data("{\"quality\": 50}".utf8).write(to: w.url.appendingPathComponent("quality.json"))
        try Data("{\"scriptFile\": \"\"}".utf8).write(to: w.url.appendingPathComponent("cfg/empty.json"))
        let runs = [
            (["--config", "lossless.json", "--quality", "50"], "a.webp"), (["--quality", "50"], "b.webp"),
            (["--config", "quality.json", "--lossless"], "c.webp"), (["--lossless"], "d.webp"),
        ]
        for (flags, name) in runs {
            let run = try CLI.run(["render", "imgs", "--quiet"] + flags + ["-o", name], in: w.url)
            #expect(run.status == 0 && run.stderr.isEmpty, "\(flags): \(run.stderr)")
        }
        #expect(w.data("a.webp") != nil && w.data("a.webp") == w.data("b.webp"))
        #expect(w.data("c.webp") != nil && w.data("c.webp") == w.data("d.webp"))
        #expect(w.data("a.webp") != w.data("c.webp"))
        let both = try CLI.run(["render", "imgs", "--config", "quality.json", "--lossless", "--quality", "3", "-o", "e.webp"], in: w.url)
        #expect(both.status == 64 && both.stderr == "error: --quality: give either quality or lossless, not both\n")
        // A config file that gives both halves is wrong whichever a flag overrides, as one with
        // both `script` and `scriptFile` is; before, a flag of the pair hid it (exit 0).
        try Data("{\"quality\": 50, \"lossless\": true}".utf8).write(to: w.url.appendingPathComponent("both.json"))
        for flags in [[String](), ["--quality", "60"], ["--lossless"], ["--no-lossless"]] {
            let run = try CLI.run(["render", "imgs", "--config", "both.json"] + flags + ["-o", "g.webp"], in: w.url)
            #expect(run.status == 64 && run.stderr == "error: both.json: key \"quality\": give either quality or lossless, not both\n", "\(flags)")
        }
        let empty = try CLI.run(["strip", "imgs", "--config", "cfg/empty.json", "-o", "f.png"], in: w.url)
        #expect(empty.status == 1 && empty.stderr == "error: \"\" (an empty name): cannot read script file: no such file or folder\n")
    }

    /// `strip` does not build the default autoplay, which it does not use: a hold of an hour
    /// (or thousands of pictures) took it past the limit, and the strip was refused for it.
    /// The strip is the same as ever, and a script given is still checked.
    @Test func stripNeedsNoTimeline() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        let long = try CLI.run(["strip", "imgs", "--hold", "3600", "-o", "long.png"], in: w.url)
        #expect(long.status == 0 && !long.stderr.contains("error"), "\(long.stderr)")
        #expect(try CLI.run(["strip", "imgs", "-o", "short.png"], in: w.url).status == 0)
        #expect(w.data("long.png") != nil && w.data("long.png") == w.data("short.png"))
        let bad = try CLI.run(["strip", "imgs", "--script", "goto 9", "-o", "bad.png"], in: w.url)
        #expect(bad.status == 1 && bad.stderr.contains("page 9 does not exist"), "\(bad.stderr)")
    }

    @Test func sameInputsSameBytes() throws {
        let w = try Self.prepare()
        defer { w.remove() }
        for name in ["one.gif", "two.gif"] {
            #expect(try CLI.run(["render", "imgs", "--dither", "diffusion", "-o", name, "--quiet"], in: w.url).status == 0)
        }
        #expect(w.data("one.gif") != nil && w.data("one.gif") == w.data("two.gif"))
    }
}

/// Progress appears only on a terminal: run under script(1), which gives the command a pseudo-terminal.
/// The calls are util-linux's (`script -qec COMMAND FILE`); BSD's `script` on macOS takes
/// other arguments, so there the terminal checks are skipped.
struct ProgressTests {
    static var hasScript: Bool {
        #if os(Linux)
        FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
        #else
        false
        #endif
    }
    /// Why the terminal checks are skipped where they are.
    static let noScript: Comment = "util-linux's script(1) not installed; skipping the terminal check"

    @Test(.enabled(if: hasScript, noScript))
    func progressOnTerminalOnly() throws {
        let w = try EndToEndTests.prepare()
        defer { w.remove() }
        let binary = try #require(CLI.binary).path
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/script"),
                                        ["-qec", "\(binary) render imgs -o tty.gif", "/dev/null"], in: w.url,
                                        environment: ["TERM": "xterm-256color"])
        let text = String(decoding: result.stdout, as: UTF8.self) + result.stderr
        #expect(result.status == 0)
        #expect(text.contains("\rframe 173/173"), "progress drawn: \(text.debugDescription)")
        #expect(text.contains("tty.gif: 173 frames, 6.92 s"))
        // A terminal that takes no escape sequences (`TERM=dumb`, empty, or none) gets the summary alone.
        for (term, unset) in [("dumb", ""), ("", ""), ("xterm", "env -u TERM ")] {
            let plain = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/script"),
                                           ["-qec", "\(unset)\(binary) render imgs -o dumb.gif", "/dev/null"], in: w.url,
                                           environment: ["TERM": term])
            let said = String(decoding: plain.stdout, as: UTF8.self) + plain.stderr
            #expect(plain.status == 0)
            #expect(!said.contains("frame 1") && !said.contains("\u{1B}"), "\(unset)TERM=\(term): \(said.debugDescription)")
            #expect(said.contains("dumb.gif: 173 frames, 6.92 s"), "\(unset)TERM=\(term): \(said.debugDescription)")
        }
    }

    /// A file grown past the size limit (`ulimit -f`) is a write error, one line and exit 1,
    /// the temporary removed and the target as it was; SIGXFSZ once ended the run silently.
    @Test func fileSizeLimitIsAWriteError() throws {
        let w = try EndToEndTests.prepare()
        defer { w.remove() }
        let binary = try #require(CLI.binary).path
        for (command, says) in [("render imgs --fps 50 --hold 3 -o keep.gif", "error: keep.gif: file too large"),
                                ("frames imgs --fps 50 --hold 3 -o fr", "error: fr: cannot write frame")] {
            let result = try Subprocess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "ulimit -f 8; exec \(binary) \(command) --quiet"], in: w.url)
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.hasPrefix(says) && result.stderr.split(separator: "\n").count == 1, "\(command): \(result.stderr)")
        }
        #expect(w.data("keep.gif") == Data("existing".utf8) && !w.exists("fr"))
        #expect(w.leftovers.isEmpty, "no temporary files left: \(w.leftovers)")
    }

    /// `-o -` is refused where standard output is a terminal, which would show the image's
    /// bytes as text; a pipe takes them as before (EndToEndTests.writesToStdout).
    @Test(.enabled(if: hasScript, noScript))
    func imageBytesAreNotSentToATerminal() throws {
        let w = try EndToEndTests.prepare()
        defer { w.remove() }
        let binary = try #require(CLI.binary).path
        for command in ["render imgs --format gif -o -", "frame imgs --at 0 -o -", "strip imgs -o -"] {
            let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/script"),
                                            ["-qec", "\(binary) \(command)", "/dev/null"], in: w.url)
            let text = String(decoding: result.stdout, as: UTF8.self) + result.stderr
            #expect(result.status == 64, "\(command): \(text.debugDescription)")
            #expect(text.contains("error: -o -: standard output is a terminal; send it to a file or a pipe (> out, | command)"),
                    "\(command): \(text.debugDescription)")
            #expect(!text.contains("GIF89a") && !text.contains("PNG"), "\(command): no image bytes")
        }
    }
}

/// GIF, WebP and APNG read back by Pillow, a decoder independent of giflib, of libwebp's
/// demuxer API use and of this project's APNG reader: frame count, delays, loop count,
/// pixels of frame 0.
@Suite(Python.needs(["PIL"], packages: "pillow"))
struct PillowReadBackTests {

    /// What `script` prints in `w`'s folder, split at white space; it must exit with 0.
    static func fields(ofPython script: String, in w: Workspace,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let read = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], in: w.url)
        #expect(read.status == 0, "\(read.stderr)", sourceLocation: sourceLocation)
        return String(decoding: read.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
    }

    @Test(SlowTests.rendersAtLength, arguments: ["gif", "webp", "apng"])
    func pillowReadsTheAnimation(_ format: String) throws {
        let w = try Workspace()
        defer { w.remove() }
        let extra = format == "webp" ? ["--lossless"] : []
        let rendered = try CLI.run(["render", "imgs", "--fps", "20", "--hold", "0.5", "--duration", "0.25", "--loop", "3",
                                    "-o", "out.\(format)", "--quiet"] + extra, in: w.url)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let frame0 = try CLI.run(["frame", "imgs", "--fps", "20", "--hold", "0.5", "--duration", "0.25", "--at", "0",
                                  "-o", "frame0.png", "--quiet"], in: w.url)
        #expect(frame0.status == 0)
        let script = """
        from PIL import Image, ImageChops
        im = Image.open("out.\(format)")
        durations = []
        for k in range(im.n_frames):
            im.seek(k)
            im.load()
            durations.append(im.info.get("duration", 0))
        im.seek(0)
        same = ImageChops.difference(im.convert("RGBA"), Image.open("frame0.png").convert("RGBA")).getbbox() is None
        print(im.n_frames, round(sum(durations)), im.info.get("loop"), same)
        """
        let fields = try Self.fields(ofPython: script, in: w)
        // 3 pages: 3 holds and 3 moves of 5 frames each at 20 fps: 10 + 5 per page, 2.25 s.
        #expect(fields.count == 4)
        #expect(Int(fields.first ?? "") ?? 0 > 3, "several distinct frames")
        #expect(fields.dropFirst().first == "2250", "total duration in ms")
        // Pillow gives a GIF's NETSCAPE2.0 count, the repeats after the first play.
        #expect(fields.dropFirst(2).first == (format == "gif" ? "2" : "3"), "--loop 3 is three plays (two repeats in a GIF)")
        #expect(fields.last == "True", "frame 0 is exact")
    }

    /// A GIF on a transparent background read by Pillow shows transparent, at every
    /// timeline frame, exactly the pixels whose alpha is below 128 in `carousel frames`.
    /// Full-width items with gaps between them: the first frame shows no gap. Pillow shows
    /// no transparency after a first frame without a transparent entry; whole frames (below
    /// 128 colours) once wrote such a first frame, and Pillow showed the gaps of every move
    /// opaque.
    @Test(arguments: ["64", "256"])
    func pillowReadsATransparentGIF(_ colors: String) throws {
        let w = try Workspace()
        defer { w.remove() }
        let options = ["imgs", "--size", "48x24", "--spacing", "6", "--background", "#00000000", "--colors", colors,
                       "--dots", "none", "--fps", "20", "--hold", "0.5", "--duration", "0.25", "--quiet"]
        #expect(try CLI.run(["render"] + options + ["-o", "out.gif"], in: w.url).status == 0)
        #expect(try CLI.run(["frames"] + options + ["-o", "exact"], in: w.url).status == 0)
        let script = """
        import json
        from pathlib import Path
        from PIL import Image
        timeline = json.loads(Path("exact/frames.json").read_text())["frames"]
        im, shown, ends = Image.open("out.gif"), [], []
        for k in range(im.n_frames):
            im.seek(k)
            shown.append(im.convert("RGBA").getchannel("A"))
            ends.append((ends[-1] if ends else 0) + im.info.get("duration", 0) // 10)
        files, start, wrong = sorted(Path("exact").glob("frame-*.png")), 0, 0
        for frame, file in zip(timeline, files):
            picture = shown[next(i for i, end in enumerate(ends) if end > start)]
            exact = Image.open(file).getchannel("A")
            wrong += sum((a < 128) != (b == 0) for a, b in zip(exact.getdata(), picture.getdata()))
            start += frame["delay"]
        opaque = all(a == 255 for a in Image.open(files[0]).getchannel("A").getdata())
        print(len(files), opaque, wrong)
        """
        let fields = try Self.fields(ofPython: script, in: w)
        #expect(fields.count == 3)
        #expect(Int(fields.first ?? "") ?? 0 > 10, "timeline frames read")
        #expect(fields.dropFirst().first == "True", "the first frame shows no gap")
        #expect(fields.last == "0", "pixels Pillow shows transparent where the frame is opaque, or the reverse")
    }
}
