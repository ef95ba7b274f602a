import Carousel
import CarouselTestSupport
import Foundation
import Testing

/// Hostile values, special output targets and signals, over the built binary: exit
/// status (never 128 or more for bad input), one line naming the option or file, no
/// leftovers, the target untouched or written as the spec says.
struct HardeningTests {
    struct Case: CustomStringConvertible, Sendable {
        let arguments: [String]
        let status: Int32
        let says: String
        var description: String { arguments.joined(separator: " ").escapingControlCharacters }
    }

    static let cases: [Case] = [
        // Pages of a microsecond fit a billion in the hour; their steps would not fit in memory.
        Case(arguments: ["render", "imgs", "--hold", "0.000001", "--duration", "0", "--script", "autoplay 1000000000"], status: 1,
             says: "error: --script: step 1 \"autoplay 1000000000\": 1000000000 x 3 pages make 3000000000 holds and as many moves, more than the 1000000 steps a timeline may have"),
        Case(arguments: ["render", "imgs", "--easing", "cubic-bezier(0,1e18,1,0)"], status: 64, says: "--easing: expected linear"),
        Case(arguments: ["render", "imgs", "--easing", "spring(0.5,1e-308)"], status: 64, says: "--easing: expected linear"),
        Case(arguments: ["render", "imgs", "--easing", "spring(1e308,0.4)"], status: 64, says: "--easing: expected linear"),
        Case(arguments: ["render", "imgs", "--script", "next 1 spring(1e308,0.4)"], status: 1, says: "is not an easing"),
        Case(arguments: ["render", "imgs", "--config", "spring.json"], status: 64, says: "spring.json: key \"easing\": expected linear"),
        Case(arguments: ["render", "imgs", "--clones", "9223372036854775807"], status: 64, says: "--clones: must be 1...100000 per side"),
        Case(arguments: ["render", "imgs", "--item-width", "9223372036854775807"], status: 64, says: "--item-width: must be 1...1000000"),
        Case(arguments: ["render", "imgs", "--spacing", "9223372036854775807"], status: 64, says: "--spacing: must be 0...1000000"),
        Case(arguments: ["render", "imgs", "--size", "9223372036854775807x1"], status: 64, says: "--size: width and height must be 1...65535"),
        Case(arguments: ["render", "imgs", "--size", "375x211", "--item-width", "9007199254740992"], status: 64, says: "--item-width: must be 1...1000000"),
        Case(arguments: ["render", "imgs", "--size", "100000x1"], status: 64, says: "--size: width and height must be 1...65535"),
        Case(arguments: ["render", "imgs", "--hold", "1e308"], status: 64, says: "--hold: expected seconds written 2, 1.5s or 300ms"),
        Case(arguments: ["render", "imgs", "--hold", "1" + String(repeating: "0", count: 400)], status: 64, says: "--hold: must be 0 to 3600 seconds"),
        Case(arguments: ["render", "imgs", "--fps", "99999999999999999999"], status: 64, says: "--fps: must be 1...50, got 99999999999999999999"),
        Case(arguments: ["render", "imgs", "--dot-size", "nan"], status: 64, says: "--dot-size: expected a number of pixels"),
        Case(arguments: ["render", "imgs", "--script", "drag 1e400; release"], status: 1, says: "is not a distance in pixels"),
        Case(arguments: ["render", "imgs", "--hold", "0", "--duration", "0", "--script", "autoplay 1000000000"], status: 64, says: "--hold: is 0 s"),
        Case(arguments: ["render", "imgs", "--fit", "a\nb"], status: 64, says: "--fit: expected fill, fit or stretch, got \"a\\nb\""),
        Case(arguments: ["render", "imgs", "--script", "hold 1; \u{1B}[31mred"], status: 1, says: "\"\\u{1B}[31mred\""),
        // Characters that reorder or hide text are escaped too: this name showed as posterfig.png.
        Case(arguments: ["render", "poster\u{202E}gnp.png", "-o", "x.gif"], status: 1,
             says: "poster\\u{202E}gnp.png: no such file or folder"),
        Case(arguments: ["render", "imgs", "--fit", "\u{200B}fit\u{FEFF}"], status: 64,
             says: "--fit: expected fill, fit or stretch, got \"\\u{200B}fit\\u{FEFF}\""),
        Case(arguments: ["render", "imgs", "--config", "newline.json"], status: 64, says: "newline.json: key \"fit\": expected fill, fit or stretch, got \"a\\nb\""),
        Case(arguments: ["render", "imgs", "--config", "trailing.json"], status: 1, says: "trailing.json: not valid JSON: expected a key in quotes after the comma (no trailing commas) at line 1, column 22"),
        Case(arguments: ["render", "imgs", "--config", "twice.json"], status: 1, says: "twice.json: key \"fps\": given twice"),
        // A negative count is a whole number, but not one of clones (before: "a whole number of
        // clones per side, got \"-1\"").
        Case(arguments: ["render", "imgs", "--clones=-1"], status: 64,
             says: "--clones: expected auto, set or a whole number of clones per side, from 1, got \"-1\""),
        // A key twice inside a value is bad JSON, not an option given twice (before: `key "a":
        // given twice ...; give each option once`); an empty unknown key is named as any other.
        Case(arguments: ["render", "imgs", "--config", "nested-twice.json"], status: 1,
             says: "nested-twice.json: not valid JSON: key \"a\" given twice at line 1, column 16"),
        Case(arguments: ["render", "imgs", "--config", "empty-key.json"], status: 1, says: "empty-key.json: key \"\": unknown key; expected one of"),
        Case(arguments: ["render", "imgs", "--config", "exponent.json"], status: 64,
             says: "exponent.json: key \"hold\": expected seconds written 2, 1.5s or 300ms, got \"1e-3\""),
        Case(arguments: ["render", "imgs", "--config", "long.json"], status: 64,
             says: "long.json: key \"duration\": must be 0 to 3600 seconds, got 4000s"),
        Case(arguments: ["render", "imgs", "--config", "/dev/zero"], status: 1, says: "/dev/zero: cannot read config file: not a regular file (a character device)"),
        Case(arguments: ["render", "imgs", "--script-file", "/dev/zero"], status: 1, says: "/dev/zero: cannot read script file: not a regular file"),
        Case(arguments: ["render", "/dev/zero"], status: 1, says: "/dev/zero: not a regular file (a character device)"),
        Case(arguments: ["render", "imgs", "-o", "nofolder/x.gif"], status: 1, says: "cannot write in nofolder: no such folder"),
        Case(arguments: ["render", "imgs", "-o", ""], status: 64, says: "-o: the path is empty"),
        Case(arguments: ["render", "imgs", "--format", "gif", "-o", ""], status: 64, says: "-o: the path is empty"),
        Case(arguments: ["frames", "imgs", "-o", ""], status: 64, says: "-o: the path is empty"),
        Case(arguments: ["frame", "imgs", "--at", "0", "-o", ""], status: 64, says: "-o: the path is empty"),
        Case(arguments: ["strip", "imgs", "-o", ""], status: 64, says: "-o: the path is empty"),
        // The dots' footer takes a GIF past 65535 rows: the footer's usage error, before encoding.
        Case(arguments: ["render", "imgs", "--size", "8x65535", "--dots", "footer", "-o", "tall.gif"], status: 64,
             says: "--dots: a GIF is at most 65535 pixels each way, and the footer's 32 rows make the output 8x65567"),
        // A WebP past 16383 pixels names what made it so: the footer, or --size (saying so
        // where the viewport took the first image's size).
        Case(arguments: ["render", "wide.png", "-o", "wide.webp"], status: 64,
             says: "error: --size: a WebP is at most 16383 pixels each way; the output would be 16384x2 (the viewport is the first image's size)"),
        Case(arguments: ["render", "imgs", "--size", "8x16383", "--dots", "footer", "-o", "tall.webp"], status: 64,
             says: "error: --dots: a WebP is at most 16383 pixels each way, and the footer's 32 rows make the output 8x16415"),
        Case(arguments: ["render", "wide.png", "--size", "16384x8", "-o", "wide.webp"], status: 64,
             says: "error: --size: a WebP is at most 16383 pixels each way; the output would be 16384x8"),
        // An option the config file does not give is named by its flag, config or not; one it
        // gives, by its key. Before, any option not given as a flag was blamed on the config
        // file's key (`fps10.json: key "size": ...`).
        Case(arguments: ["render", "wide.png", "--config", "fps10.json", "-o", "wide.webp"], status: 64,
             says: "error: --size: a WebP is at most 16383 pixels each way; the output would be 16384x2 (the viewport is the first image's size)"),
        Case(arguments: ["render", "imgs", "--config", "size16384.json", "-o", "wide.webp"], status: 64,
             says: "error: size16384.json: key \"size\": a WebP is at most 16383 pixels each way; the output would be 16384x8"),
        // With --size, before any picture is read (the missing one is not reached): before, the
        // pictures were read and laid out first, 2.0 s and 1.5 GB at 65535x500.
        Case(arguments: ["render", "missing.png", "--size", "65535x500", "-o", "wide.webp"], status: 64,
             says: "error: --size: a WebP is at most 16383 pixels each way; the output would be 65535x500"),
        // A path through a file: not "no such file" alone.
        Case(arguments: ["render", "afile/x.png"], status: 1, says: "afile/x.png: no such file or folder (a part of the path is a file)"),
        // The longer of hold and duration is blamed for autoplay past the hour.
        Case(arguments: ["render", "imgs", "--duration", "3600"], status: 64, says: "--duration: is 3600.0 s a move, so the default autoplay"),
    ]
    #if os(Linux)
    /// Linux's `/proc`, which takes no new file (macOS has none).
    static let systemCases = [
        Case(arguments: ["render", "imgs", "-o", "/proc/x.gif"], status: 1, says: "/proc/x.gif: cannot write in /proc: its file system does not allow new files"),
    ]
    #else
    static let systemCases: [Case] = []
    #endif

    static func workspace() throws -> Workspace {
        let w = try Workspace()
        try Data("{\"easing\": \"spring(1e308,0.4)\"}".utf8).write(to: w.url.appendingPathComponent("spring.json"))
        try Data("{\"fit\": \"a\\nb\"}".utf8).write(to: w.url.appendingPathComponent("newline.json"))
        try Data("{ \"size\": \"375x211\", }".utf8).write(to: w.url.appendingPathComponent("trailing.json"))
        try Data("{\"fps\":10,\"fps\":99}".utf8).write(to: w.url.appendingPathComponent("twice.json"))
        try Data("{\"hold\": \"1e-3\"}".utf8).write(to: w.url.appendingPathComponent("exponent.json"))
        try Data("{\"duration\": \"4000s\"}".utf8).write(to: w.url.appendingPathComponent("long.json"))
        try Data("{\"fps\": 10}".utf8).write(to: w.url.appendingPathComponent("fps10.json"))
        try Data("{\"fps\": {\"a\":1,\"a\":2}}".utf8).write(to: w.url.appendingPathComponent("nested-twice.json"))
        try Data("{\"\": 1}".utf8).write(to: w.url.appendingPathComponent("empty-key.json"))
        try Data("{\"size\": \"16384x8\"}".utf8).write(to: w.url.appendingPathComponent("size16384.json"))
        try w.write(RGBAImage(width: 16384, height: 2, fill: RGBA(r: 40, g: 90, b: 160)), to: "wide.png")
        return w
    }

    @Test(arguments: cases + systemCases)
    func hostileValue(_ c: Case) throws {
        let w = try Self.workspace()
        defer { w.remove() }
        let before = w.data("keep.gif")
        let arguments = c.arguments.contains("-o") ? c.arguments : c.arguments + ["-o", "keep.gif"]
        let result = try CLI.run(arguments, in: w.url)
        #expect(result.status == c.status, "\(c): \(result.stderr)")
        #expect(result.status < 128)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        #expect(lines.count == 1 && lines.first?.hasPrefix("error: ") == true, "one line: \(result.stderr.escapingControlCharacters)")
        #expect(result.stderr.contains(c.says), "\(c): \(result.stderr.escapingControlCharacters)")
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(w.data("keep.gif") == before, "an existing output is untouched")
        #expect(w.leftovers.isEmpty, "no temporary files left: \(w.leftovers)")
    }

    /// Names outside UTF-8, on the command line or in a folder, are refused naming them: Swift
    /// would read them with U+FFFD in place of their bytes, and so find nothing or write
    /// another file. Run through bash, which passes the bytes as they are.
    @Test func namesThatAreNotUTF8AreRefused() throws {
        let w = try Self.workspace()
        defer { w.remove() }
        let binary = try #require(CLI.binary).path
        try Data("a file of that name".utf8).write(to: w.url.appendingPathComponent("\u{FFFD}.gif"))
        let script = """
            cp imgs/1.png $'\\xff.png'; mkdir u8; cp imgs/1.png u8/$'\\xff.png'
            '\(binary)' render $'\\xff.png' -o out.gif 2>in.txt; echo $? > in.status
            '\(binary)' render imgs -o $'\\xfe.gif' 2>out.txt; echo $? > out.status
            '\(binary)' render u8 -o out.gif 2>folder.txt; echo $? > folder.status
            '\(binary)' render imgs --fps $'\\xff' -o out.gif 2>fps.txt; echo $? > fps.status
            '\(binary)' render imgs --script=$'hold \\xff' -o out.gif 2>script.txt; echo $? > script.status
            '\(binary)' render imgs --script-file $'\\xff.txt' -o out.gif 2>file.txt; echo $? > file.status
            '\(binary)' render --script --fps $'\\xff.png' -o out.gif 2>value.txt; echo $? > value.status
            '\(binary)' render imgs --f$'\\xff' -o out.gif 2>flag.txt; echo $? > flag.status
            '\(binary)' render imgs -o=$'\\xfe.gif' 2>short.txt; echo $? > short.status
            '\(binary)' render imgs -o out.gif -- --fps=$'\\xff' 2>ended.txt; echo $? > ended.status
            '\(binary)' render imgs --fit --script $'\\xff' 2>next.txt; echo $? > next.status
            """
        #expect(try Subprocess.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script], in: w.url).status == 0)
        func said(_ name: String) -> (String, String) {
            (String(decoding: w.data(name + ".status") ?? Data(), as: UTF8.self),
             String(decoding: w.data(name + ".txt") ?? Data(), as: UTF8.self))
        }
        #expect(said("in") == ("64\n", "error: \\xFF.png: not UTF-8 text; carousel reads its arguments as UTF-8 (rename a file named so)\n"))
        #expect(said("out") == ("64\n", "error: -o: \\xFE.gif: not UTF-8 text; carousel reads its arguments as UTF-8 (rename a file named so)\n"))
        // An option's value is named by its option; only files are to be renamed.
        #expect(said("fps") == ("64\n", "error: --fps: \\xFF: not UTF-8 text; carousel reads its arguments as UTF-8\n"))
        #expect(said("script") == ("64\n", "error: --script: hold \\xFF: not UTF-8 text; carousel reads its arguments as UTF-8\n"))
        #expect(said("file") == ("64\n", "error: --script-file: \\xFF.txt: not UTF-8 text; carousel reads its arguments as UTF-8 (rename a file named so)\n"))
        // `--fps` is the script's value here, so the name is an image's.
        #expect(said("value") == ("64\n", "error: \\xFF.png: not UTF-8 text; carousel reads its arguments as UTF-8 (rename a file named so)\n"))
        #expect(said("flag") == ("64\n", "error: --f\\xFF: not UTF-8 text; carousel reads its arguments as UTF-8\n"))
        #expect(said("short") == ("64\n", "error: -o: \\xFE.gif: not UTF-8 text; carousel reads its arguments as UTF-8 (rename a file named so)\n"))
        // After `--` every argument is an image, whatever it looks like.
        #expect(said("ended") == ("64\n", "error: --fps=\\xFF: not UTF-8 text; carousel reads its arguments as UTF-8 (rename a file named so)\n"))
        // `--fit` takes no value that looks like an option, so `--script` takes the bytes.
        #expect(said("next") == ("64\n", "error: --script: \\xFF: not UTF-8 text; carousel reads its arguments as UTF-8\n"))
        #if os(Linux)
        // macOS's file systems take no such name: there `cp` makes no file and the folder is empty.
        #expect(said("folder") == ("1\n", "error: u8/\u{FFFD}.png: the file's name is not UTF-8 text; rename it\n"))
        #endif
        #expect(w.data("\u{FFFD}.gif") == Data("a file of that name".utf8), "the file U+FFFD names is not written")
        #expect(!w.exists("out.gif") && w.leftovers.isEmpty)
    }

    /// A loop of symbolic links as the output is refused, and the link kept (spec 5c keeps links).
    @Test func symlinkLoopIsKept() throws {
        let w = try Self.workspace()
        defer { w.remove() }
        try FileManager.default.createSymbolicLink(atPath: w.path("loopy.gif"), withDestinationPath: "loopy.gif")
        let result = try CLI.run(["render", "imgs", "-o", "loopy.gif", "--quiet"], in: w.url)
        #expect(result.status == 1 && result.stderr == "error: loopy.gif: too many levels of symbolic links; the link is left as it is\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: w.path("loopy.gif")) == "loopy.gif")
        let frames = try CLI.run(["frames", "imgs", "-o", "loopy.gif", "--quiet"], in: w.url)
        #expect(frames.status == 1 && frames.stderr.contains("too many levels of symbolic links"))
        #expect(w.leftovers.isEmpty)
    }

    /// A picture far taller than its item is resampled a source row at a time: one row 6000
    /// pixels wide from a picture 6000 tall took 576 MB (every source row resampled at once),
    /// and a row 65535 wide from one 65535 tall failed to allocate 68 GB.
    @Test(SlowTests.rendersAtLength, .enabled(if: EcosystemTests.onLinux, "ulimit -v limits the address space on Linux"))
    func tallPictureIntoOneRowTakesLittleMemory() throws {
        let w = try Self.workspace()
        defer { w.remove() }
        let binary = try #require(CLI.binary).path
        try PNGCodec.encode(RGBAImage(width: 1, height: 6000, fill: RGBA(r: 200, g: 10, b: 10))).write(to: w.url.appendingPathComponent("tall.png"))
        let script = "ulimit -v 300000; '\(binary)' frame tall.png --size 6000x1 --fit stretch --at 0 -o row.png --quiet"
        let run = try Subprocess.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script], in: w.url, timeout: 600)
        #expect(run.status == 0, "\(run.stderr)")
        let row = try PNGCodec.decode(try #require(w.data("row.png")))
        #expect(row.width == 6000 && row.height == 1 && row.pixels.count == 6000 * 4)
        #expect((0..<6000).allSatisfy { row[$0, 0] == RGBA(r: 200, g: 10, b: 10) })
    }

    /// A PNG file larger than the run may hold in memory, from a file or a pipe, is refused in
    /// one line: its bytes are taken from `malloc`, which says when it has none. Under a 512 MiB
    /// address-space limit a 900 MiB file crashed the run with a backtrace (`Data(count:)`).
    @Test(.enabled(if: EcosystemTests.onLinux && CLI.hasBash, "ulimit -v limits the address space on Linux; needs /bin/bash"))
    func aFileLargerThanMemoryIsRefusedInALine() throws {
        let w = try Self.workspace()
        defer { w.remove() }
        let fd = open(w.path("huge.png"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let wrote = signature.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let sized = ftruncate(fd, 900 << 20)
        close(fd)
        try #require(wrote == signature.count && sized == 0)
        let file = try CLI.run(shell: #"ulimit -v 524288; exec "$0" render imgs huge.png -o out.gif"#, with: "/bin/bash", in: w.url)
        #expect(file.status == 1)
        #expect(file.stderr == "error: huge.png: the file is 943718400 bytes, more than this run can hold in memory\n")
        // `cat` is told of the closed pipe by an error rather than a signal where the test
        // runner ignores SIGPIPE, as its children then do; its message is not the run's.
        let pipe = try CLI.run(shell: #"ulimit -v 524288; exec "$0" render imgs <(cat huge.png 2>/dev/null) -o out.gif"#,
                               with: "/bin/bash", in: w.url)
        #expect(pipe.status == 1)
        #expect(pipe.stderr.hasPrefix("error: /dev/fd/") && pipe.stderr.contains(": the pipe gives more bytes than this run can hold in memory ("), "\(pipe.stderr)")
        #expect(pipe.stderr.filter { $0 == "\n" }.count == 1, "\(pipe.stderr)")
        #expect(!w.exists("out.gif") && w.leftovers.isEmpty)
    }

    /// A picture whose pixels the run cannot hold (8192x8192, within the size cap: 256 MiB of
    /// RGBA, under a 200,000 KiB address-space limit) is refused in one line naming it, before
    /// its pixels are read: `malloc` is asked first. Before, the run ended with `Fatal error:
    /// failed to allocate 268435488 bytes` and a backtrace (exit 134).
    @Test(.enabled(if: EcosystemTests.onLinux && CLI.hasBash, "ulimit -v limits the address space on Linux; needs /bin/bash"))
    func aPictureLargerThanMemoryIsRefusedInALine() throws {
        let w = try Self.workspace()
        defer { w.remove() }
        // 1-bit grey, every row blank, in stored deflate blocks: an 8.4 MB file.
        let side = 8192
        var ihdr = PNGBytes.be32(side)
        ihdr.append(PNGBytes.be32(side))
        ihdr.append(contentsOf: [1, 0, 0, 0, 0])
        let rows = Data(count: (1 + side / 8) * side)
        try PNGBytes.file([("IHDR", ihdr), ("IDAT", PNGBytes.zlibStored(rows)), ("IEND", Data())]).write(to: w.url.appendingPathComponent("big.png"))
        for command in ["frame imgs big.png --at 0 -o out.png", "render imgs big.png -o out.gif"] {
            // 200,000 KiB of address space holds the run but not 256 MiB more, whatever the
            // allocator keeps for its threads.
            let run = try CLI.run(shell: "ulimit -v 200000; exec \"$0\" \(command) --size 32x18 --quiet", with: "/bin/bash", in: w.url)
            #expect(run.status == 1, "\(command): \(run.stderr)")
            #expect(run.stderr == "error: big.png: its 8192x8192 pixels take 256 MiB, more than this run can hold in memory\n")
        }
        #expect(!w.exists("out.png") && !w.exists("out.gif") && w.leftovers.isEmpty)
    }

    /// Whether a thread's stack may be set far past the address space (`ulimit -s` under
    /// the hard limit), which makes every thread the run would start fail to start.
    static var stackLimitMayGrow: Bool {
        var limit = rlimit()
        #if os(Linux)
        let stack = __rlimit_resource_t(RLIMIT_STACK.rawValue)
        #else
        let stack = RLIMIT_STACK
        #endif
        return getrlimit(stack, &limit) == 0 && limit.rlim_max == rlim_t.max
    }

    /// A run the system gives no thread (each one's 20 GB stack will not fit in 8 GB of
    /// address space) ends as any other: `--version` and `strip` do their work on the one
    /// thread there is, the GIF encoder, which needs one beside the writer, says why in a
    /// line, and SIGTERM ends the run with 143. Before, Dispatch asked for a thread again
    /// every second, for ever: the run hung before it read an argument, deaf to SIGTERM.
    @Test(.enabled(if: EcosystemTests.onLinux && CLI.hasBash && stackLimitMayGrow,
                   "needs Linux's ulimit -v, /bin/bash and a stack limit that may be raised"))
    func aRunWithoutThreadsEndsInALine() throws {
        // A run that hangs fails the test through `Subprocess`'s own limit, which counts wall
        // time in the test's body. (A `.timeLimit` trait counted the time the body waited for
        // a thread of the test runner's pool, which the suite's slow tests may hold for
        // minutes, and failed a run that had not hung.)
        let w = try Self.workspace()
        defer { w.remove() }
        let limits = Self.noThreads
        let version = try CLI.run(shell: limits + "--version", with: "/bin/bash", in: w.url)
        #expect(version.status == 0 && String(decoding: version.stdout, as: UTF8.self) == Carousel.version + "\n", "\(version.stderr)")
        let strip = try CLI.run(shell: limits + "strip imgs -o strip.png --quiet", with: "/bin/bash", in: w.url)
        #expect(strip.status == 0 && w.exists("strip.png"), "\(strip.stderr)")
        let gif = try CLI.run(shell: limits + "render imgs -o out.gif", with: "/bin/bash", in: w.url)
        #expect(gif.status == 1)
        #expect(gif.stderr == "error: out.gif: the system gives this run no thread to encode with (are memory or processes limited, as by ulimit -v or ulimit -u?)\n")
        #expect(!w.exists("out.gif") && w.leftovers.isEmpty)
        // The encoder's threads start before the GIF's first byte: nothing reaches the pipe.
        let piped = try CLI.run(shell: limits + "render imgs --format gif -o -", with: "/bin/bash", in: w.url)
        #expect(piped.status == 1 && piped.stdout.isEmpty, "\(piped.stdout.count) bytes")
        #expect(piped.stderr.hasSuffix(": the system gives this run no thread to encode with (are memory or processes limited, as by ulimit -v or ulimit -u?)\n"))
        let stopped = try CLI.run(shell: limits + "render imgs --size 1280x720 --script 'autoplay 40' -o long.webp & sleep 1; kill -TERM $!; wait $!",
                                  with: "/bin/bash", in: w.url)
        #expect(stopped.status == 143, "\(stopped.stderr)")
        #expect(!w.exists("long.webp") && w.leftovers.isEmpty)
    }

    /// Names up to the 255 bytes a name may have are written: the temporary beside the output
    /// is cut short to fit.
    @Test func longestNamesAreWritten() throws {
        let w = try Self.workspace()
        defer { w.remove() }
        let file = String(repeating: "x", count: 251) + ".gif", folder = String(repeating: "é", count: 127)
        #expect(try CLI.run(["render", "imgs", "-o", file, "--quiet"], in: w.url).status == 0)
        #expect(try DecodedGIF([UInt8](try #require(w.data(file)))).frames.count > 1)
        #expect(try CLI.run(["frames", "imgs", "-o", folder, "--quiet"], in: w.url).status == 0)
        #expect(try CLI.run(["frames", "imgs", "-o", folder, "--quiet"], in: w.url).status == 0, "replacing it too")
        #expect(w.exists(folder + "/frames.json") && w.leftovers.isEmpty)
    }

    /// The summary line escapes control characters in the output's name, as errors do.
    @Test func summaryIsOneLine() throws {
        let w = try Self.workspace()
        defer { w.remove() }
        let result = try CLI.run(["render", "imgs", "-o", "n\nl\u{1B}[31m.gif"], in: w.url)
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("n\\nl\\u{1B}[31m.gif: 173 frames, ") && result.stderr.filter { $0 == "\n" }.count == 1,
                "\(result.stderr.escapingControlCharacters)")
    }

    /// Without -o, the name follows --format; a folder whose name ends in .png is passed over
    /// in a folder of images; `frames -o .` from a folder since deleted says so, leaving nothing,
    /// and so does an image named relative to it.
    @Test func defaultNamesFoldersAndTheCurrentFolder() throws {
        let w = try Self.workspace()
        defer { w.remove() }
        #expect(try CLI.run(["render", "imgs", "--format", "webp", "--quiet"], in: w.url).status == 0)
        #expect(try CLI.run(["render", "imgs", "--format", "apng", "--quiet"], in: w.url).status == 0)
        #expect(w.exists("carousel.webp") && w.exists("carousel.apng") && !w.exists("carousel.gif"))
        try FileManager.default.createDirectory(atPath: w.path("imgs/sub.png"), withIntermediateDirectories: false)
        #expect(try CLI.run(["render", "imgs", "-o", "folder.gif", "--quiet"], in: w.url).status == 0)
        let binary = try #require(CLI.binary).path
        let script = "mkdir gone && cd gone && rmdir ../gone && '\(binary)' frames --size 16x9 -o . 2>../gone.txt; echo $? > ../gone.status; "
            + "'\(binary)' render --size 16x9 -o x.gif 2>>../gone.txt; echo $? >> ../gone.status; "
            + "'\(binary)' render ../imgs -o '\(w.path("from-gone.gif"))' 2>>../gone.txt; echo $? >> ../gone.status"
        #expect(try Subprocess.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script], in: w.url).status == 0)
        #expect(w.data("gone.status") == Data("1\n1\n1\n".utf8))
        // An image found through `..` is refused as the outputs are; before, as `not a file URL`.
        #expect(w.data("gone.txt") == Data(("error: .: the current folder no longer exists\n"
                                            + "error: x.gif: cannot write in .: the current folder no longer exists\n"
                                            + "error: ../imgs: the current folder no longer exists\n").utf8))
        #expect(!w.exists("from-gone.gif"))
        #expect(w.leftovers.isEmpty)
        // A link to a folder, named with a slash after it, stays a link: the folder it points to is replaced.
        try FileManager.default.createDirectory(atPath: w.path("real"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: w.path("link"), withDestinationPath: "real")
        #expect(try CLI.run(["frames", "imgs", "-o", "link/", "--quiet"], in: w.url).status == 0)
        #expect(try CLI.run(["frames", "imgs", "-o", "link/", "--quiet"], in: w.url).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: w.path("link")) == "real")
        #expect(w.exists("real/frames.json") && w.leftovers.isEmpty)
    }

    /// A FIFO is written through, streaming: its reader gets the whole GIF; the node stays a FIFO.
    @Test func fifoIsWrittenThrough() throws {
        let w = try Workspace()
        defer { w.remove() }
        let fifo = w.path("pipe.gif")
        try #require(mkfifo(fifo, 0o644) == 0)
        let copy = w.path("read.gif")
        let reader = Thread {
            // Read the FIFO to its end, as a viewer reading a pipe would.
            let fd = open(fifo, O_RDONLY)
            guard fd >= 0 else { return }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { break }
                bytes += buffer[0..<n]
            }
            close(fd)
            // A copy that could not be written is missing, which the test checks below.
            _ = FileManager.default.createFile(atPath: copy, contents: Data(bytes))
        }
        reader.start()
        let result = try CLI.run(["render", "imgs", "--hold", "0.2", "-o", "pipe.gif", "--quiet"], in: w.url)
        #expect(result.status == 0, "\(result.stderr)")
        for _ in 0..<200 where !w.exists("read.gif") { usleep(10_000) }
        let gif = try #require(w.data("read.gif"))
        #expect(gif.starts(with: Array("GIF89a".utf8)) && gif.last == 0x3B)
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
        #expect(w.leftovers.isEmpty)
    }

    /// A folder that refuses new files with EPERM (Linux's immutable attribute here; on macOS
    /// a package plugin's sandbox outside its package) says so, not that its file system
    /// takes none.
    @Test(.enabled(if: canMakeImmutable, "chattr +i needs root and a file system with the attribute"))
    func folderThatIsNotPermittedSaysSo() throws {
        let w = try Workspace()
        defer { w.remove() }
        try FileManager.default.createDirectory(at: w.url.appendingPathComponent("fixed"), withIntermediateDirectories: false)
        try Self.withAttribute("i", on: "fixed", in: w) {
            let result = try CLI.run(["render", "imgs", "--hold", "0.2", "-o", "fixed/x.gif", "--quiet"], in: w.url)
            #expect(result.status == 1)
            #expect(result.stderr == "error: fixed/x.gif: cannot write in fixed: not permitted (a sandbox, such as a package plugin's outside its package, or a folder marked immutable)\n")
        }
    }

    /// A folder marked append-only takes a new file but lets none be renamed or removed, so
    /// a temporary could be neither put in place nor cleaned up: every output there is
    /// refused before anything is written. Before, the run failed with `permission denied`
    /// and left `.y.gif.carousel-XXXXXX` (or a temporary folder) behind.
    @Test(.enabled(if: canMakeImmutable, "chattr +a needs root and a file system with the attribute"))
    func appendOnlyFolderIsRefusedFirst() throws {
        let w = try Workspace()
        defer { w.remove() }
        try FileManager.default.createDirectory(at: w.url.appendingPathComponent("ao"), withIntermediateDirectories: false)
        try Self.withAttribute("a", on: "ao", in: w) {
            for arguments in [["render", "imgs", "--hold", "0.2", "-o", "ao/y.gif"], ["frame", "imgs", "--at", "0", "-o", "ao/f.png"],
                              ["frames", "imgs", "--hold", "0.2", "-o", "ao/fr"]] {
                let result = try CLI.run(arguments + ["--quiet"], in: w.url)
                #expect(result.status == 1, "\(arguments)")
                #expect(result.stderr == "error: \(arguments[arguments.count - 1]): cannot write in ao: the folder is marked append-only, "
                        + "which lets a new file in but not renamed into place or removed\n")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: w.path("ao")).isEmpty)
        }
    }

    /// Runs `body` with `name` in `w` marked with the attribute `flag` (`i` immutable, `a`
    /// append-only), cleared after.
    static func withAttribute(_ flag: String, on name: String, in w: Workspace, _ body: () throws -> Void) throws {
        try #require(try chattr("+" + flag, name, in: w))
        defer { _ = try? chattr("-" + flag, name, in: w) }
        try body()
    }

    /// Sets or clears an attribute of `name` in `w` (`flag`: `+i` or `-i` immutable, `+a` or
    /// `-a` append-only); whether it did.
    static func chattr(_ flag: String, _ name: String, in w: Workspace) throws -> Bool {
        try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["chattr", flag, name], in: w.url).status == 0
    }

    /// Whether a folder can be made immutable here (`chattr +i`: root, and ext4 or the like).
    static var canMakeImmutable: Bool {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("carousel-chattr-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)) != nil else { return false }
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = { (flag: String) in
            (try? Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["chattr", flag, folder.path], in: folder))?.status == 0
        }
        guard run("+i") else { return false }
        return run("-i")
    }

    /// Makes a copy of /dev/full (major 1, minor 7) at `path`; whether it did.
    static func makeFullDevice(at path: String) -> Bool {
        mknod(path, S_IFCHR | 0o666, dev_t((1 << 8) | 7)) == 0
    }

    /// Whether tests may make a character device here (`mknod`: root, outside a container
    /// that forbids it).
    static var canMakeDevice: Bool {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("carousel-mknod-\(UUID().uuidString)").path
        defer { unlink(path) }
        return makeFullDevice(at: path)
    }

    /// A character device is written directly and never replaced (a copy of /dev/full: the write fails).
    @Test(.enabled(if: canMakeDevice, "mknod of a character device needs root"))
    func characterDeviceIsNeverReplaced() throws {
        let w = try Workspace()
        defer { w.remove() }
        try #require(Self.makeFullDevice(at: w.path("full.gif")), "mknod full.gif")
        let result = try CLI.run(["render", "imgs", "--hold", "0.2", "-o", "full.gif", "--quiet"], in: w.url)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: full.gif: "))
        var info = stat()
        #expect(lstat(w.path("full.gif"), &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "still the device")
        #expect(w.leftovers.isEmpty)
    }

    /// A symlink's target file is replaced (atomically) and the link stays; a link to
    /// standard output's descriptor (`/proc/self/fd/1` on Linux, `/dev/fd/1` on macOS) writes to it.
    @Test func symlinksAreFollowed() throws {
        let w = try Workspace()
        defer { w.remove() }
        try Data("old".utf8).write(to: w.url.appendingPathComponent("real.gif"))
        try FileManager.default.createSymbolicLink(atPath: w.path("link.gif"), withDestinationPath: "real.gif")
        let result = try CLI.run(["render", "imgs", "--hold", "0.2", "-o", "link.gif", "--quiet"], in: w.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: w.path("link.gif")) == "real.gif")
        #expect(w.data("real.gif")?.starts(with: Array("GIF89a".utf8)) == true, "the target is the new GIF")
        #if os(Linux)
        let descriptor = "/proc/self/fd/1"
        #else
        let descriptor = "/dev/fd/1"
        #endif
        try FileManager.default.createSymbolicLink(atPath: w.path("out"), withDestinationPath: descriptor)
        let stdout = try CLI.run(["render", "imgs", "--hold", "0.2", "-o", "out", "--format", "gif", "--quiet"], in: w.url)
        #expect(stdout.status == 0 && stdout.stdout.starts(with: Array("GIF89a".utf8)))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: w.path("out")) == descriptor)
        #expect(w.leftovers.isEmpty)
    }

    /// A path naming one of the process's descriptors is written through that descriptor, as
    /// `-o -` writes standard output: into a file opened to append (`>> log`) the output is
    /// appended. Before, `/dev/stdout` and `/dev/fd/N` were opened afresh, at the file's start,
    /// and wrote over it with exit 0. A descriptor that is not open is refused in one line.
    @Test func descriptorPathsWriteThroughTheDescriptor() throws {
        let w = try Workspace()
        defer { w.remove() }
        let frame = ["frame", "imgs", "--at", "0", "--quiet"]
        let png = try CLI.run(frame + ["-o", "-"], in: w.url).stdout
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let old = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        var spellings = [("/dev/stdout", ">> log"), ("/dev/fd/5", "5>> log"), ("/dev/fd//1", ">> log"), ("/dev/./stdout", ">> log")]
        #if os(Linux)
        spellings += [("/proc/thread-self/fd/1", ">> log"), ("/proc/self/task/../fd/1", ">> log")]
        #endif
        for (path, redirect) in spellings {
            try old.write(to: w.url.appendingPathComponent("log"))
            let result = try CLI.run(shell: "\"$0\" " + (frame + ["-o", path]).joined(separator: " ") + " " + redirect, in: w.url)
            #expect(result.status == 0, "\(path): \(result.stderr)")
            #expect(w.data("log") == old + png, "\(path): appended after the old bytes")
        }
        // What a descriptor cannot take is refused in one line, the file it leads to as it was.
        try Data("keep".utf8).write(to: w.url.appendingPathComponent("ro.txt"))
        // (A POSIX shell redirects descriptors 0 to 9.)
        for (fd, redirect, reason) in [(99, "", "descriptor 99 is not open"), (7, "7< ro.txt", "descriptor 7 is open for reading only"),
                                       (7, "7< .", "is a folder; give a file name")] {
            let result = try CLI.run(shell: "\"$0\" " + (frame + ["-o", "/dev/fd/\(fd)"]).joined(separator: " ") + " " + redirect, in: w.url)
            #expect(result.status == 1)
            #expect(result.stderr == "error: /dev/fd/\(fd): \(reason)\n")
        }
        #expect(w.data("ro.txt") == Data("keep".utf8))
        // A descriptor path that names no descriptor, or a folder (a trailing slash), is refused.
        for (path, reason) in [("/dev/fd/1x", "names no descriptor; after fd/ comes a descriptor's number"),
                               ("/dev/fd/99999999999", "names no descriptor; after fd/ comes a descriptor's number"),
                               ("/dev/fd/1/", "ends in /, as a folder's name does"), ("/dev/stdout/", "ends in /, as a folder's name does")] {
            let result = try CLI.run(frame + ["-o", path], in: w.url)
            #expect(result.status == 1 && result.stdout.isEmpty, "\(path)")
            #expect(result.stderr.hasPrefix("error: \(path): ") && result.stderr.contains(reason), "\(path): \(result.stderr)")
        }
    }

    /// A standard output that is non-blocking (as a Node.js parent may hand it over) is waited
    /// on when full, for `-o -` and `-o /dev/stdout` alike. Before, the write failed once the
    /// pipe was full: `error: <stdout>: resource temporarily unavailable`, exit 1.
    @Test func nonBlockingStandardOutputIsWaitedOn() throws {
        let w = try Workspace()
        defer { w.remove() }
        let binary = try #require(CLI.binary)
        #if os(Linux)
        // Linux lets a pipe be shrunk to a page (F_SETPIPE_SZ), so a small GIF of the
        // workspace's flat pictures fills it: quicker than the sample banners.
        let capacity = 4096
        let render = ["render", "imgs", "--size", "96x48", "--item-width", "48", "--script", "next 1", "--fps", "50",
                      "--format", "gif", "--quiet"]
        #else
        let capacity = 1 << 16
        let render = ["render", "--script", "next 0.4", "--fps", "10", "--format", "gif", "--quiet"]
        #endif
        #expect(try CLI.run(render + ["-o", "ref.gif"], in: w.url).status == 0)
        let reference = try #require(w.data("ref.gif"))
        #expect(reference.count > 3 * capacity, "more than a pipe holds")
        for output in ["-", "/dev/stdout"] {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            #if os(Linux)
            let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, which Glibc's module leaves out
            try #require(fcntl(ends[1], setPipeSize, Int32(capacity)) == Int32(capacity))
            #endif
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            let process = Process()
            process.executableURL = binary
            process.arguments = render + ["-o", output]
            process.currentDirectoryURL = w.url
            process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
            process.standardError = FileHandle.nullDevice
            try process.run()
            close(ends[1])
            // The pipe fills before anything is read. On Linux: once it is half full, the
            // writer is a moment from meeting it full (its last bytes fit or not, by its
            // writes' sizes).
            #if os(Linux)
            var queued: Int32 = 0
            let deadline = Date().addingTimeInterval(60)
            while ioctl(ends[0], UInt(FIONREAD), &queued) == 0, queued < capacity / 2, Date() < deadline { usleep(1000) }
            #expect(queued >= capacity / 2, "\(output): the pipe holds \(queued) bytes")
            usleep(100_000)
            #else
            usleep(500_000)
            #endif
            let data = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true).readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(output)")
            #expect(data == reference, "\(output): \(data.count) bytes")
        }
    }

    /// A standard descriptor closed by the caller is opened on /dev/null first thing, so no file
    /// takes its number; an output naming a closed one is refused. Before, `-o - >&-` wrote the
    /// PNG into a descriptor of the runtime's and said `<stdout>: invalid argument`.
    @Test func closedStandardDescriptors() throws {
        let w = try Workspace()
        defer { w.remove() }
        let binary = try #require(CLI.binary)
        func shell(_ line: String) throws -> CLI.Result {
            try Subprocess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" " + line, binary.path], in: w.url)
        }
        for output in ["-", "/dev/stdout"] {
            let result = try shell("frame imgs --at 0 --quiet -o \(output) >&-")
            #expect(result.status == 1)
            #expect(result.stderr == "error: -o \(output): standard output is closed; give a file, or run with it open\n")
        }
        // Another spelling of the same descriptor, and a link to it.
        try FileManager.default.createSymbolicLink(atPath: w.path("out"), withDestinationPath: "/dev/stdout")
        for output in ["/dev/fd//1", "out"] {
            let result = try shell("frame imgs --at 0 --quiet -o \(output) >&-")
            #expect(result.status == 1)
            #expect(result.stderr == "error: -o \(output): standard output is closed; give a file, or run with it open\n")
        }
    }

    /// A frames folder whose files cannot be removed (immutable here; a read-only folder for a
    /// user who is not root) is refused before anything is written, the folder as it was.
    /// Before, the new frames were swapped in, and the run failed after, with the old frames
    /// left beside it in `.NAME.XXXXXX.old`.
    @Test(.enabled(if: canMakeImmutable, "chattr +i needs root and a file system with the attribute"))
    func framesFolderThatCannotBeEmptiedIsRefusedFirst() throws {
        let w = try Workspace()
        defer { w.remove() }
        #expect(try CLI.run(["frames", "imgs", "--hold", "0.2", "-o", "out", "--quiet"], in: w.url).status == 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: w.path("out")).sorted()
        try Self.withAttribute("i", on: "out", in: w) {
            let result = try CLI.run(["frames", "imgs", "--hold", "0.3", "-o", "out", "--quiet"], in: w.url)
            #expect(result.status == 1)
            #expect(result.stderr == "error: out: cannot replace the folder's files: permission denied\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: w.path("out")).sorted() == before)
            #expect(w.leftovers.isEmpty, "\(w.leftovers)")
        }
    }

    /// A frames folder holding a file marked immutable or append-only, or itself marked
    /// append-only (which lets files in but none out), is refused before anything is
    /// written, the folder as it was: not even root removes those files. Before, the new
    /// frames were swapped in, the run failed after with some of the old frames deleted, and
    /// the rest were left in `.NAME.XXXXXX.old`.
    @Test(.enabled(if: canMakeImmutable, "chattr +i needs root and a file system with the attribute"))
    func framesFolderWithAMarkedFileIsRefusedFirst() throws {
        let w = try Workspace()
        defer { w.remove() }
        #expect(try CLI.run(["frames", "imgs", "--hold", "0.2", "-o", "out", "--quiet"], in: w.url).status == 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: w.path("out")).sorted()
        let marked = try #require(before.first { $0.hasPrefix("frame-") && $0 != "frame-00000.png" })
        for (flag, name, reason) in [("i", "out/" + marked, "\(marked) is marked immutable or append-only"),
                                     ("a", "out/" + marked, "\(marked) is marked immutable or append-only"),
                                     ("a", "out", "the folder is marked append-only or immutable")] {
            try Self.withAttribute(flag, on: name, in: w) {
                let result = try CLI.run(["frames", "imgs", "--hold", "0.3", "-o", "out", "--quiet"], in: w.url)
                #expect(result.status == 1)
                #expect(result.stderr == "error: out: cannot replace the folder's files: \(reason)\n", "+\(flag) \(name)")
                #expect(try FileManager.default.contentsOfDirectory(atPath: w.path("out")).sorted() == before)
                #expect(w.leftovers.isEmpty, "\(w.leftovers)")
            }
        }
        // Unmarked, the folder is replaced.
        #expect(try CLI.run(["frames", "imgs", "--hold", "0.3", "-o", "out", "--quiet"], in: w.url).status == 0)
    }

    /// Runs carousel as nobody (uid and gid 65534, through setpriv) with `arguments` in `folder`.
    static func runAsNobody(_ arguments: [String], in folder: URL) throws -> CLI.Result {
        guard let binary = CLI.binary else { throw CLI.Missing() }
        return try Subprocess.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                  ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path] + arguments, in: folder)
    }

    /// Whether tests may run carousel as another user: as root, with setpriv, and with every
    /// folder on the way to the binary open to other users.
    static var canRunAsNobody: Bool {
        geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
            && (try? runAsNobody(["--version"], in: URL(fileURLWithPath: "/")))?.status == 0
    }

    /// Runs carousel as nobody in `w`, whose folder it opens to every user.
    static func runnerAsNobody(in w: Workspace) -> ([String]) throws -> CLI.Result {
        chmod(w.url.path, 0o777)
        return { arguments in try runAsNobody(arguments, in: w.url) }
    }

    /// As a user who is not root, a frames folder whose files that user cannot remove (a
    /// read-only folder; a sticky folder holding another user's files) is refused before
    /// anything is written, the folder as it was. Before, the new frames were swapped in and
    /// the run failed after, the old frames left beside them in `.NAME.XXXXXX.old`.
    @Test(.enabled(if: canRunAsNobody, "runs carousel as nobody: needs root, setpriv and the binary open to other users"))
    func framesFolderAnotherUserCannotEmptyIsRefusedFirst() throws {
        let w = try Workspace()
        defer { w.remove() }
        let asNobody = Self.runnerAsNobody(in: w)
        for (mode, reason) in [(mode_t(0o555), "permission denied"),
                               (0o1777, "frame-00000.png is another user's, in a folder that keeps each user's files (sticky)")] {
            try? FileManager.default.removeItem(at: w.url.appendingPathComponent("out"))
            #expect(try CLI.run(["frames", "imgs", "--hold", "0.2", "-o", "out", "--quiet"], in: w.url).status == 0)
            let before = try FileManager.default.contentsOfDirectory(atPath: w.path("out")).sorted()
            chmod(w.path("out"), mode)
            let result = try asNobody(["frames", "imgs", "--hold", "0.3", "-o", "out", "--quiet"])
            #expect(result.status == 1)
            #expect(result.stderr == "error: out: cannot replace the folder's files: \(reason)\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: w.path("out")).sorted() == before)
            #expect(w.leftovers.isEmpty, "\(w.leftovers)")
        }
    }

    /// An output file this user may not write (read-only to them) is refused before anything
    /// is written, as `>` refuses it, though the rename that puts a new file in place would
    /// replace it. Before, a read-only file was replaced.
    @Test(.enabled(if: canRunAsNobody, "runs carousel as nobody: needs root, setpriv and the binary open to other users"))
    func fileThisUserMayNotWriteIsRefusedFirst() throws {
        let w = try Workspace()
        defer { w.remove() }
        let asNobody = Self.runnerAsNobody(in: w)
        for (name, command) in [("kept.gif", ["render", "imgs", "--hold", "0.2"]), ("kept.png", ["frame", "imgs", "--at", "0"])] {
            try Data("kept".utf8).write(to: w.url.appendingPathComponent(name))
            chown(w.path(name), 65534, 65534)
            chmod(w.path(name), 0o444)
            let result = try asNobody(command + ["-o", name, "--quiet"])
            #expect(result.status == 1)
            #expect(result.stderr == "error: \(name): cannot replace it: permission denied (the file is read-only to this user)\n")
            #expect(w.data(name) == Data("kept".utf8) && w.leftovers.isEmpty, "\(w.leftovers)")
            // Writable again, it is replaced.
            chmod(w.path(name), 0o644)
            #expect(try asNobody(command + ["-o", name, "--quiet"]).status == 0)
        }
    }

    /// An output file marked immutable is refused before anything is written, even for root.
    /// Before, the run failed with `permission denied` after the render.
    @Test(.enabled(if: canMakeImmutable, "chattr +i needs root and a file system with the attribute"))
    func immutableFileIsRefusedFirst() throws {
        let w = try Workspace()
        defer { w.remove() }
        try Data("kept".utf8).write(to: w.url.appendingPathComponent("kept.gif"))
        try Self.withAttribute("i", on: "kept.gif", in: w) {
            let result = try CLI.run(["render", "imgs", "--hold", "0.3", "-o", "kept.gif", "--quiet"], in: w.url)
            #expect(result.status == 1)
            #expect(result.stderr == "error: kept.gif: cannot replace it: the file is marked immutable or append-only\n")
            #expect(w.data("kept.gif") == Data("kept".utf8) && w.leftovers.isEmpty, "\(w.leftovers)")
        }
    }

    /// A signal while a frames folder replaces an existing one, once the existing one is set
    /// aside (`.out.XXXXXX.old`) and while it is being removed, leaves the new folder whole
    /// and nothing beside it: the folder set aside is the signal's to remove too. The new
    /// folder is in place by then, so the run exits 0; before, it exited 130 with the target
    /// replaced.
    @Test(SlowTests.rendersAtLength) func signalWhileThePreviousFolderIsRemoved() throws {
        try signalWhileThePreviousFolderIsRemoved(withoutThreads: false)
    }

    /// The same in a run the system gives no thread, where a handler takes the signal: it too
    /// exits 0 with the new folder in place. Before, that handler exited 143.
    @Test(SlowTests.rendersAtLength,
          .enabled(if: EcosystemTests.onLinux && CLI.hasBash && stackLimitMayGrow,
                   "needs Linux's ulimit -v, /bin/bash and a stack limit that may be raised"))
    func signalWhileThePreviousFolderIsRemovedWithoutThreads() throws {
        try signalWhileThePreviousFolderIsRemoved(withoutThreads: true)
    }

    /// A folder of more than 100,000 frames names every frame with six digits
    /// (`frame-000000.png`); the handler of a run without threads removes those names too.
    /// Before, it looked for five-digit names only, gave up, and left the temporary folder.
    @Test(SlowTests.rendersAtLength,
          .enabled(if: EcosystemTests.onLinux && CLI.hasBash && stackLimitMayGrow,
                   "needs Linux's ulimit -v, /bin/bash and a stack limit that may be raised"))
    func aSignalRemovesAFolderOfSixDigitNamesWithoutThreads() throws {
        let w = try Workspace()
        defer { w.remove() }
        // 2,001 s at 50 fps: 100,050 frames.
        let process = try Self.start(["frames", "--size", "1x1", "--fps", "50", "--script", "hold 2001", "--dots", "none", "-o", "out", "--quiet"],
                                     in: w, withoutThreads: true)
        func written() -> Bool {
            w.leftovers.contains { FileManager.default.fileExists(atPath: w.path($0) + "/frame-000009.png") }
        }
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && !written() && Date() < deadline { usleep(1_000) }
        let sawFrames = written()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(sawFrames, "the run was signalled once it had written six-digit names")
        #expect(process.terminationReason == .exit && process.terminationStatus == 143, "status \(process.terminationStatus)")
        #expect(w.leftovers.isEmpty, "no temporary folder left: \(w.leftovers)")
        #expect(!w.exists("out"))
    }

    private func signalWhileThePreviousFolderIsRemoved(withoutThreads: Bool) throws {
        let w = try Workspace()
        defer { w.remove() }
        // Some 5,000 frames in the folder replaced, so removing it takes long enough to signal
        // the run in the middle of it.
        #expect(try CLI.run(["frames", "--size", "2x2", "--fps", "50", "--hold", "20", "-o", "out", "--quiet"],
                            in: w.url).status == 0)
        let process = try Self.start(["frames", "--size", "16x9", "--fps", "10", "-o", "out", "--quiet"],
                                     in: w, withoutThreads: withoutThreads)
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && !w.leftovers.contains(where: { $0.hasSuffix(".old") }) && Date() < deadline { usleep(500) }
        let sawOld = w.leftovers.contains { $0.hasSuffix(".old") }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(sawOld, "the run was signalled while the previous folder was being removed")
        // The new folder was in place: the output is whole, and the run says so.
        #expect(process.terminationStatus == 0, "status \(process.terminationStatus)")
        #expect(w.leftovers.isEmpty, "nothing left beside the output: \(w.leftovers)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: w.path("out")).count == 116, "the new folder, whole")
    }

    /// A crash signal removes the temporary file and then ends the run as the crash it is,
    /// killed by that signal after the Swift runtime's report, the target untouched. While
    /// SIGUSR1 was one of the ending signals, the runtime's own SIGUSR1, which stops the
    /// process's threads for its report, reached the thread that takes them: every crash
    /// exited 138, with no report.
    @Test(SlowTests.rendersAtLength) func aCrashRemovesTheTemporaryAndStaysACrash() throws {
        let w = try Workspace()
        defer { w.remove() }
        let before = w.data("keep.gif")
        let process = try Self.signalWhileWriting("render", output: "keep.gif", in: w, signal: SIGSEGV)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGSEGV,
                "\(process.terminationReason) \(process.terminationStatus)")
        #expect(w.leftovers.isEmpty, "no temporary output left: \(w.leftovers)")
        #expect(w.data("keep.gif") == before, "the target is untouched")
    }

    /// SIGKILL, which no handler sees, leaves the temporary file or folder; the next run that
    /// puts the same output in place removes it, once it has not changed for a minute
    /// (aged here), the killed run's lock gone with it. Before, it stayed until removed by hand.
    @Test(SlowTests.rendersAtLength, arguments: ["render", "frames"])
    func leftoversOfAKilledRunAreRemovedByTheNext(_ command: String) throws {
        let w = try Workspace()
        defer { w.remove() }
        let output = command == "render" ? "keep.gif" : "frames-out"
        let process = try Self.signalWhileWriting(command, output: output, in: w, signal: SIGKILL)
        let left = w.leftovers
        #expect(process.terminationReason == .uncaughtSignal && left.count == 1, "\(left)")
        let then = timeval(tv_sec: time(nil) - 120, tv_usec: 0)
        for name in left { _ = utimes(w.path(name), [then, then]) }
        let next = try CLI.run([command, "imgs", "-o", output, "--quiet"], in: w.url)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(w.leftovers.isEmpty, "\(w.leftovers)")
    }

    /// A bash command's start that runs the tool (`$0`) under limits that leave the system no
    /// thread to give it; `exec` makes the run the process a test signals.
    static let noThreads = "ulimit -v 8000000 && ulimit -s 20000000 && exec \"$0\" "

    /// Starts the tool with `arguments` in `w`, its output thrown away; `withoutThreads`, under
    /// ``noThreads``; with the signals `ignoring` names (bash's names: `INT HUP`) ignored, as
    /// `nohup` and a shell's background jobs start a program.
    static func start(_ arguments: [String], in w: Workspace, withoutThreads: Bool = false, ignoring: String? = nil) throws -> Process {
        precondition(!withoutThreads || ignoring == nil, "one bash prefix at a time")
        _ = Subprocess.endingSignalsByDefault
        let binary = try #require(CLI.binary)
        let process = Process()
        if let prefix = withoutThreads ? noThreads : ignoring.map({ "trap '' \($0) && exec \"$0\" " }) {
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", prefix + "\"$@\"", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        process.currentDirectoryURL = w.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Starts a long `command` (`render` or `frames`) writing `output` in `w`, sends it `signal`
    /// once its temporary output exists, and waits for it to end.
    static func signalWhileWriting(_ command: String, output: String, in w: Workspace, signal: Int32) throws -> Process {
        let process = try startWriting(command, output: output, in: w)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process
    }

    /// Starts a long `command` writing `output` in `w` (with the signals `ignoring` names
    /// ignored, as ``start(_:in:withoutThreads:ignoring:)`` takes them), and returns once its
    /// temporary output exists.
    static func startWriting(_ command: String, output: String, in w: Workspace, ignoring: String? = nil) throws -> Process {
        let process = try start([command, "--size", "1280x720", "--fps", "50", "--hold", "6", "-o", output, "--quiet"],
                                in: w, ignoring: ignoring)
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && w.leftovers.isEmpty && Date() < deadline { usleep(5_000) }
        #expect(!w.leftovers.isEmpty, "the run was signalled while writing")
        return process
    }

    /// A signal the run was started with ignored stays ignored, as `nohup` (SIGHUP) and a
    /// shell's background job (SIGINT and SIGQUIT) ask; another still ends the run with its
    /// temporary file removed. Before, the run took them all, so `nohup carousel render …`
    /// ended with the terminal.
    @Test(SlowTests.rendersAtLength, .enabled(if: CLI.hasBash, "needs /bin/bash"))
    func signalsIgnoredAtTheStartStayIgnored() throws {
        let w = try Workspace()
        defer { w.remove() }
        let before = w.data("keep.gif")
        let process = try Self.startWriting("render", output: "keep.gif", in: w, ignoring: "INT HUP QUIT")
        for signalNumber in [SIGINT, SIGHUP, SIGQUIT] { kill(process.processIdentifier, signalNumber) }
        usleep(500_000)
        #expect(process.isRunning, "the ignored signals left the run going")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 143, "status \(process.terminationStatus)")
        #expect(w.leftovers.isEmpty, "no temporary output left: \(w.leftovers)")
        #expect(w.data("keep.gif") == before, "the target is untouched")
    }

    /// SIGINT, SIGTERM and SIGHUP remove the temporary file or folder and exit 130, 143, 129;
    /// so do the other signals that end a process without a crash, with 128 + the signal.
    @Test(SlowTests.rendersAtLength, arguments: [
        (SIGINT, "render"), (SIGTERM, "frames"), (SIGHUP, "render"), (SIGINT, "frames"),
        (SIGQUIT, "render"), (SIGXCPU, "frames"), (SIGALRM, "render"), (SIGVTALRM, "frames"),
    ])
    func signalsCleanUp(_ signalNumber: Int32, _ command: String) throws {
        let w = try Workspace()
        defer { w.remove() }
        let output = command == "render" ? "keep.gif" : "frames-out"
        let before = w.data("keep.gif")
        let process = try Self.signalWhileWriting(command, output: output, in: w, signal: signalNumber)
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + signalNumber)
        #expect(w.leftovers.isEmpty, "no temporary output left: \(w.leftovers)")
        #expect(w.data("keep.gif") == before && !w.exists("frames-out"), "the target is untouched")
    }
}
