import Carousel
import Foundation
import Testing

/// Scripts, configs and images read from pipes: `-` for standard input, a named FIFO, as a
/// shell's `<(command)` gives one. Each run's output is compared with the same run given
/// regular files, byte for byte.
struct PipedInputTests {
    static let script = "next 0.2; hold 0.2; prev 0.2 ease-in"

    /// The GIF of `imgs` with `Self.script` given inline, as the reference.
    static func reference(in w: Workspace) throws -> Data {
        let result = try CLI.run(["render", "imgs", "--script", script, "-o", "reference.gif", "--quiet"], in: w.url)
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(w.data("reference.gif"))
    }

    @Test func scriptFileFromStandardInput() throws {
        let w = try Workspace()
        defer { w.remove() }
        let reference = try Self.reference(in: w)
        let result = try CLI.run(["render", "imgs", "--script-file", "-", "-o", "piped.gif", "--quiet"], in: w.url,
                                 input: .pipe(Data((Self.script + "\n").utf8)))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(w.data("piped.gif") == reference)
    }

    /// A config on standard input: its options apply, its relative `scriptFile` is taken from
    /// the working directory, and its errors name "standard input" (read again to name the key).
    @Test func configFromStandardInput() throws {
        let w = try Workspace()
        defer { w.remove() }
        let reference = try Self.reference(in: w)
        try Data(Self.script.utf8).write(to: w.url.appendingPathComponent("moves.txt"))
        let piped = try CLI.run(["render", "imgs", "--config", "-", "-o", "piped.gif"], in: w.url,
                                input: .pipe(Data(#"{"scriptFile": "moves.txt", "quiet": true}"#.utf8)))
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
        #expect(w.data("piped.gif") == reference)

        let bad = try CLI.run(["render", "imgs", "--config", "-", "-o", "bad.gif"], in: w.url,
                              input: .pipe(Data(#"{"fps": 99}"#.utf8)))
        #expect(bad.status == 64)
        #expect(bad.stderr == "error: standard input: key \"fps\": must be 1...50, got 99\n")
        #expect(!w.exists("bad.gif") && w.leftovers.isEmpty)

        // An error found after the options are read names the key by reading the config
        // again, which gives the pipe's bytes a second time.
        let late = try CLI.run(["render", "imgs", "--config", "-", "-o", "late.gif"], in: w.url,
                               input: .pipe(Data(#"{"size": "100x40", "itemWidth": 90, "clones": 0}"#.utf8)))
        #expect(late.status == 64)
        #expect(late.stderr == "error: standard input: key \"clones\": 0 per side is too few for this layout; "
                + "it needs at least 2 (2 before, 2 after)\n")
        #expect(!w.exists("late.gif") && w.leftovers.isEmpty)
    }

    /// A shell's process substitution, `<(command)`, for the config and the script.
    @Test(.enabled(if: CLI.hasBash, "needs /bin/bash"))
    func processSubstitution() throws {
        let w = try Workspace()
        defer { w.remove() }
        let reference = try Self.reference(in: w)
        let line = #""$0" render imgs --config <(printf '{"quiet": true}') --script-file <(printf '%s\n' "$1") -o substituted.gif"#
        let result = try CLI.run(shell: line, [Self.script], with: "/bin/bash", in: w.url)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(w.data("substituted.gif") == reference)
    }

    /// Standard input is read once: a config and a script cannot both be `-`, as flags (a
    /// usage error) or through the config's `scriptFile`.
    @Test func standardInputServesOneFile() throws {
        let w = try Workspace()
        defer { w.remove() }
        let flags = try CLI.run(["render", "imgs", "--config", "-", "--script-file", "-", "-o", "both.gif"], in: w.url,
                                input: .pipe(Data(#"{"fps": 10}"#.utf8)))
        #expect(flags.status == 64)
        #expect(flags.stderr.hasPrefix("error: --script-file -: standard input is already the config file (--config -); "
                + "give a file's path for one of them\n"), "\(flags.stderr)")
        let key = try CLI.run(["render", "imgs", "--config", "-", "-o", "both.gif"], in: w.url,
                              input: .pipe(Data(#"{"scriptFile": "-"}"#.utf8)))
        #expect(key.status == 1)
        #expect(key.stderr == "error: standard input: cannot read script file: standard input was already read as "
                + "the config file; give a file's path for one of them\n")
        #expect(!w.exists("both.gif") && w.leftovers.isEmpty)
    }

    /// A standard input the caller closed is said to be closed, not read as the `/dev/null`
    /// that takes its place.
    @Test func closedStandardInput() throws {
        let w = try Workspace()
        defer { w.remove() }
        let result = try CLI.run(shell: #""$0" render imgs --script-file - -o closed.gif <&-"#, in: w.url)
        #expect(result.status == 1)
        #expect(result.stderr == "error: standard input: cannot read script file: standard input is closed; "
                + "pipe the file in, or give its path\n")
        #expect(!w.exists("closed.gif"))
    }

    /// A script on standard input names it in its errors.
    @Test func scriptErrorNamesStandardInput() throws {
        let w = try Workspace()
        defer { w.remove() }
        let result = try CLI.run(["render", "imgs", "--script-file", "-", "-o", "bad.gif"], in: w.url,
                                 input: .pipe(Data("next 0.2\nspin 3\n".utf8)))
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: standard input: line 2"), "\(result.stderr)")
        #expect(!w.exists("bad.gif"))
    }

    @Test func pipeOverTheLimitIsRefused() throws {
        let w = try Workspace()
        defer { w.remove() }
        let text = Data(repeating: UInt8(ascii: "\n"), count: Script.maximumSize + 1)
        let result = try CLI.run(["render", "imgs", "--script-file", "-", "-o", "big.gif"], in: w.url, input: .pipe(text))
        #expect(result.status == 1)
        #expect(result.stderr == "error: standard input: cannot read script file: the pipe gives more than the limit of 1048576 bytes\n")
        #expect(!w.exists("big.gif"))
    }

    /// A terminal on standard input is refused rather than waited on.
    @Test func terminalIsRefused() throws {
        let w = try Workspace()
        defer { w.remove() }
        typealias Open = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        let master = try CFunction.load("posix_openpt", as: Open.self)(O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { close(master) }
        try #require(try CFunction.load("grantpt", as: Open.self)(master) == 0 && CFunction.load("unlockpt", as: Open.self)(master) == 0)
        let name = try #require(try CFunction.load("ptsname", as: Name.self)(master).map { String(cString: $0) })
        let terminal = open(name, O_RDWR | O_NOCTTY)
        try #require(terminal >= 0)
        defer { close(terminal) }
        let result = try CLI.run(["render", "imgs", "--script-file", "-", "-o", "tty.gif"], in: w.url,
                                 input: .descriptor(terminal))
        #expect(result.status == 1)
        #expect(result.stderr == "error: standard input: cannot read script file: standard input is a terminal; "
                + "pipe the file in, or give its path\n")
    }

    /// Named FIFOs wait for their writers, which open them after the run has started: an
    /// image, a config (whose relative `scriptFile` is read from its own folder) and a script.
    @Test func namedFIFOsAreReadToTheirEnd() throws {
        let w = try Workspace()
        defer { w.remove() }
        let reference = try Self.reference(in: w)
        try FileManager.default.createDirectory(at: w.url.appendingPathComponent("cfg"), withIntermediateDirectories: true)
        // Read, then replaced by --script-file: a config that found no cfg/moves.txt would fail.
        try Data("hold 5".utf8).write(to: w.url.appendingPathComponent("cfg/moves.txt"))
        let images = ["imgs/1.png", "imgs/2.png", "imgs/10.png"]
        let feeds: [(fifo: String, bytes: Data)] = try [
            ("script.fifo", Data(Self.script.utf8)),
            ("cfg/config.fifo", Data(#"{"quiet": true, "scriptFile": "moves.txt"}"#.utf8)),
            ("image.fifo", #require(w.data(images[2]))),
        ]
        for feed in feeds { try #require(mkfifo(w.path(feed.fifo), 0o644) == 0) }
        let writers = feeds.map { feed in Self.writer(w.path(feed.fifo), feed.bytes, after: 200_000) }
        for writer in writers { writer.start() }
        let result = try CLI.run(["render", images[0], images[1], "image.fifo", "--config", "cfg/config.fifo",
                                  "--script-file", "script.fifo", "-o", "fifo.gif"], in: w.url)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(w.data("fifo.gif") == reference)
    }

    /// A writer already waiting when the run starts, which writes and closes before the run
    /// could open the FIFO a second time: read at once, every time. (A FIFO opened once to
    /// learn what it is and again to wait for a writer hung about half the time.)
    @Test func writerThatFinishesFirst() throws {
        let w = try Workspace()
        defer { w.remove() }
        try #require(mkfifo(w.path("early.fifo"), 0o644) == 0)
        // The frame at 0.3 s rests on the second page, after the script's move.
        let reference = try CLI.run(["frame", "imgs", "--script", "next 0.2; hold 0.2", "--at", "0.3", "-o", "given.png", "--quiet"],
                                    in: w.url)
        try #require(reference.status == 0, "\(reference.stderr)")
        let expected = try #require(w.data("given.png"))
        let first = try CLI.run(["frame", "imgs", "--at", "0.3", "-o", "first.png", "--quiet"], in: w.url)
        #expect(first.status == 0 && w.data("first.png") != expected, "the default script shows another frame at 0.3 s")
        for run in 0..<20 {
            let writer = Self.writer(w.path("early.fifo"), Data("next 0.2; hold 0.2\n".utf8), after: 0)
            writer.start()
            let result = try CLI.run(["frame", "imgs", "--script-file", "early.fifo", "--at", "0.3", "-o", "early.png", "--quiet"],
                                     in: w.url, timeout: 20)
            try #require(result.status == 0, "run \(run): \(result.stderr)")
            #expect(w.data("early.png") == expected, "run \(run)")
        }
    }

    /// A config over the limit from a FIFO is refused at once: the second read, which names
    /// the keys of an error, gets the first read's failure rather than waiting for a writer.
    @Test func fifoOverTheLimitIsRefusedOnce() throws {
        let w = try Workspace()
        defer { w.remove() }
        try #require(mkfifo(w.path("big.fifo"), 0o644) == 0)
        let writer = Self.writer(w.path("big.fifo"), Data(repeating: 0x20, count: 2 << 20), after: 0)
        writer.start()
        let result = try CLI.run(["render", "imgs", "--config", "big.fifo", "-o", "big.gif"], in: w.url, timeout: 20)
        #expect(result.status == 1)
        #expect(result.stderr == "error: big.fifo: cannot read config file: the pipe gives more than the limit of 1048576 bytes\n")
        #expect(!w.exists("big.gif") && w.leftovers.isEmpty)
    }

    /// A thread that opens the FIFO at `path` for writing after `delay` microseconds (waiting
    /// for a reader), writes `bytes` as far as the reader takes them, and closes it.
    static func writer(_ path: String, _ bytes: Data, after delay: useconds_t) -> Thread {
        Thread {
            if delay > 0 { usleep(delay) }
            let fd = open(path, O_WRONLY)
            guard fd >= 0 else { return }
            writeAndClose(fd, bytes)
        }
    }

    /// A FIFO that a folder's listing finds is refused at once: the user did not name it, and
    /// it would hold the run, waiting for a writer, without a word.
    @Test func fifoInAFolderIsRefused() throws {
        let w = try Workspace()
        defer { w.remove() }
        try #require(mkfifo(w.path("imgs/5.png"), 0o644) == 0)
        let result = try CLI.run(["render", "imgs", "-o", "folder.gif"], in: w.url, timeout: 20)
        #expect(result.status == 1)
        #expect(result.stderr == "error: imgs/5.png: a FIFO found in a folder; give the FIFO itself to read it\n")
        #expect(!w.exists("folder.gif") && w.leftovers.isEmpty)
    }

    /// A device is still refused by what it is, before anything is read.
    @Test func deviceIsStillRefused() throws {
        let w = try Workspace()
        defer { w.remove() }
        let result = try CLI.run(["render", "imgs", "--script-file", "-", "-o", "null.gif"], in: w.url)
        #expect(result.status == 1)
        #expect(result.stderr == "error: standard input: cannot read script file: not a regular file (a character device)\n")
    }
}
