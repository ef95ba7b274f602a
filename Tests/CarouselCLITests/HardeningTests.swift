import Carousel
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
        Case(arguments: ["render", "imgs", "--easing", "cubic-bezier(0,1e18,1,0)"], status: 64, says: "--easing: expected linear"),
        Case(arguments: ["render", "imgs", "--easing", "spring(0.5,1e-308)"], status: 64, says: "--easing: expected linear"),
        Case(arguments: ["render", "imgs", "--easing", "spring(1e308,0.4)"], status: 64, says: "--easing: expected linear"),
        Case(arguments: ["render", "imgs", "--script", "next 1 spring(1e308,0.4)"], status: 1, says: "is not an easing"),
        Case(arguments: ["render", "imgs", "--config", "spring.json"], status: 64, says: "spring.json: key \"easing\": expected linear"),
        Case(arguments: ["render", "imgs", "--clones", "9223372036854775807"], status: 64, says: "--clones: must be 0...100000 per side"),
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
        Case(arguments: ["render", "imgs", "--config", "newline.json"], status: 64, says: "newline.json: key \"fit\": expected fill, fit or stretch, got \"a\\nb\""),
        Case(arguments: ["render", "imgs", "--config", "trailing.json"], status: 1, says: "trailing.json: not valid JSON: expected a key in quotes after the comma (no trailing commas) at line 1, column 22"),
        Case(arguments: ["render", "imgs", "--config", "twice.json"], status: 1, says: "twice.json: key \"fps\": given twice"),
        Case(arguments: ["render", "imgs", "--config", "exponent.json"], status: 64,
             says: "exponent.json: key \"hold\": expected seconds written 2, 1.5s or 300ms, got \"1e-3\""),
        Case(arguments: ["render", "imgs", "--config", "long.json"], status: 64,
             says: "long.json: key \"duration\": must be 0 to 3600 seconds, got 4000s"),
        Case(arguments: ["render", "imgs", "--config", "/dev/zero"], status: 1, says: "/dev/zero: not a regular file (a character device)"),
        Case(arguments: ["render", "imgs", "--script-file", "/dev/zero"], status: 1, says: "/dev/zero: cannot read script file: not a regular file"),
        Case(arguments: ["render", "/dev/zero"], status: 1, says: "/dev/zero: not a regular file (a character device)"),
        Case(arguments: ["render", "imgs", "-o", "/proc/x.gif"], status: 1, says: "/proc/x.gif: cannot write in /proc: its file system does not allow new files"),
        Case(arguments: ["render", "imgs", "-o", "nofolder/x.gif"], status: 1, says: "cannot write in nofolder: no such folder"),
        Case(arguments: ["render", "imgs", "-o", ""], status: 64, says: "-o: the path is empty"),
        Case(arguments: ["render", "imgs", "--format", "gif", "-o", ""], status: 64, says: "-o: the path is empty"),
        Case(arguments: ["frames", "imgs", "-o", ""], status: 64, says: "-o: the path is empty"),
        Case(arguments: ["frame", "imgs", "--at", "0", "-o", ""], status: 64, says: "-o: the path is empty"),
        Case(arguments: ["strip", "imgs", "-o", ""], status: 64, says: "-o: the path is empty"),
    ]

    static func workspace() throws -> Workspace {
        let w = try Workspace()
        try Data("{\"easing\": \"spring(1e308,0.4)\"}".utf8).write(to: w.url.appendingPathComponent("spring.json"))
        try Data("{\"fit\": \"a\\nb\"}".utf8).write(to: w.url.appendingPathComponent("newline.json"))
        try Data("{ \"size\": \"375x211\", }".utf8).write(to: w.url.appendingPathComponent("trailing.json"))
        try Data("{\"fps\":10,\"fps\":99}".utf8).write(to: w.url.appendingPathComponent("twice.json"))
        try Data("{\"hold\": \"1e-3\"}".utf8).write(to: w.url.appendingPathComponent("exponent.json"))
        try Data("{\"duration\": \"4000s\"}".utf8).write(to: w.url.appendingPathComponent("long.json"))
        return w
    }

    @Test(arguments: cases)
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

    /// A character device is written directly and never replaced (a copy of /dev/full: the write fails).
    @Test func characterDeviceIsNeverReplaced() throws {
        let w = try Workspace()
        defer { w.remove() }
        guard mknod(w.path("full.gif"), S_IFCHR | 0o666, dev_t((1 << 8) | 7)) == 0 else {  // major 1, minor 7
            print("skipped: mknod needs root here")
            return
        }
        let result = try CLI.run(["render", "imgs", "--hold", "0.2", "-o", "full.gif", "--quiet"], in: w.url)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: full.gif: "))
        var info = stat()
        #expect(lstat(w.path("full.gif"), &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "still the device")
        #expect(w.leftovers.isEmpty)
    }

    /// A symlink's target file is replaced (atomically) and the link stays; a link to
    /// /proc/self/fd/1 writes to standard output.
    @Test func symlinksAreFollowed() throws {
        let w = try Workspace()
        defer { w.remove() }
        try Data("old".utf8).write(to: w.url.appendingPathComponent("real.gif"))
        try FileManager.default.createSymbolicLink(atPath: w.path("link.gif"), withDestinationPath: "real.gif")
        let result = try CLI.run(["render", "imgs", "--hold", "0.2", "-o", "link.gif", "--quiet"], in: w.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: w.path("link.gif")) == "real.gif")
        #expect(w.data("real.gif")?.starts(with: Array("GIF89a".utf8)) == true, "the target is the new GIF")
        try FileManager.default.createSymbolicLink(atPath: w.path("out"), withDestinationPath: "/proc/self/fd/1")
        let stdout = try CLI.run(["render", "imgs", "--hold", "0.2", "-o", "out", "--format", "gif", "--quiet"], in: w.url)
        #expect(stdout.status == 0 && stdout.stdout.starts(with: Array("GIF89a".utf8)))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: w.path("out")) == "/proc/self/fd/1")
        #expect(w.leftovers.isEmpty)
    }

    /// A signal while a frames folder replaces an existing one, once the existing one is set
    /// aside (`.out.XXXXXX.old`) and while it is being removed, leaves the new folder whole
    /// and nothing beside it: the folder set aside is the signal's to remove too.
    @Test(SlowTests.rendersAtLength) func signalWhileThePreviousFolderIsRemoved() throws {
        let w = try Workspace()
        defer { w.remove() }
        let binary = try #require(CLI.binary)
        // Some 5,000 frames in the folder replaced, so removing it takes long enough to signal
        // the run in the middle of it.
        #expect(try CLI.run(["frames", "--size", "2x2", "--fps", "50", "--hold", "20", "-o", "out", "--quiet"],
                            in: w.url).status == 0)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["frames", "--size", "16x9", "--fps", "10", "-o", "out", "--quiet"]
        process.currentDirectoryURL = w.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && !w.leftovers.contains(where: { $0.hasSuffix(".old") }) && Date() < deadline { usleep(500) }
        let sawOld = w.leftovers.contains { $0.hasSuffix(".old") }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(sawOld, "the run was signalled while the previous folder was being removed")
        #expect(process.terminationStatus == 130 || process.terminationStatus == 0, "status \(process.terminationStatus)")
        #expect(w.leftovers.isEmpty, "nothing left beside the output: \(w.leftovers)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: w.path("out")).count == 116, "the new folder, whole")
    }

    /// SIGINT, SIGTERM and SIGHUP remove the temporary file or folder and exit 130, 143, 129.
    @Test(SlowTests.rendersAtLength, arguments: [(SIGINT, "render"), (SIGTERM, "frames"), (SIGHUP, "render"), (SIGINT, "frames")])
    func signalsCleanUp(_ signalNumber: Int32, _ command: String) throws {
        let w = try Workspace()
        defer { w.remove() }
        let binary = try #require(CLI.binary)
        let output = command == "render" ? "keep.gif" : "frames-out"
        let before = w.data("keep.gif")
        let process = Process()
        process.executableURL = binary
        process.arguments = [command, "--size", "1280x720", "--fps", "50", "--hold", "6", "-o", output, "--quiet"]
        process.currentDirectoryURL = w.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until the temporary output exists, then signal.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && w.leftovers.isEmpty && Date() < deadline { usleep(5_000) }
        let sawTemporary = !w.leftovers.isEmpty
        kill(process.processIdentifier, signalNumber)
        process.waitUntilExit()
        #expect(sawTemporary, "the run was signalled while writing")
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + signalNumber)
        #expect(w.leftovers.isEmpty, "no temporary output left: \(w.leftovers)")
        #expect(w.data("keep.gif") == before && !w.exists("frames-out"), "the target is untouched")
    }
}
