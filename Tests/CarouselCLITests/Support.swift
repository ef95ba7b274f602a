import Carousel
import Foundation

/// Runs the built `carousel` binary and captures what it says.
enum CLI {
    struct Result {
        let status: Int32
        let stdout: Data
        let stderr: String
    }

    /// The `carousel` executable beside the test bundle (the same build folder). On Linux
    /// the tests run as that folder's executable; on macOS a runner of the toolchain loads
    /// the `.xctest` bundle from it, so the bundle's folder is looked in too.
    static var binary: URL? {
        let bundles = Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("carousel"),
            Bundle.main.bundleURL.appendingPathComponent("carousel"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("carousel"),
        ] + bundles.map { $0.bundleURL.deletingLastPathComponent().appendingPathComponent("carousel") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `carousel ARGS` in `directory`, killing it after `timeout` seconds (a hang is a failure).
    static func run(_ arguments: [String], in directory: URL, timeout: TimeInterval = 120) throws -> Result {
        guard let binary else { throw Missing() }
        return try Subprocess.run(binary, arguments, in: directory, timeout: timeout)
    }

    /// Runs `carousel ARGS` in `directory` with `input` as standard input (a pipe, or a
    /// descriptor such as a terminal's).
    static func run(_ arguments: [String], in directory: URL, input: Subprocess.Input) throws -> Result {
        guard let binary else { throw Missing() }
        return try Subprocess.run(binary, arguments, in: directory, input: input)
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String { "the carousel binary is not built beside the tests (run swift build first)" }
    }

    /// Whether `/bin/bash` is here, for tests of its redirections (`<(command)`, `<&-`).
    static let hasBash = FileManager.default.isExecutableFile(atPath: "/bin/bash")

    /// Runs the command line `line` with `shell -c` in `directory`, where `"$0"` is the
    /// carousel binary and `"$1"`… are `arguments`: for what only a shell's redirections give.
    static func run(shell line: String, _ arguments: [String] = [], with shell: String = "/bin/sh",
                    in directory: URL) throws -> Result {
        guard let binary else { throw Missing() }
        return try Subprocess.run(URL(fileURLWithPath: shell), ["-c", line, binary.path] + arguments, in: directory)
    }

}

/// Runs a program with its output sent to files (no pipes to drain), and a time limit.
enum Subprocess {
    /// Every ending signal this test process ignores is set back to its default, once, so
    /// that the runs it starts take them as a run started from a terminal does: a process
    /// started in the background (`swift test &` in a script) ignores SIGINT and SIGQUIT,
    /// and every process it starts is started with them ignored, which carousel keeps.
    /// The test process then takes them by default too, as one started from a terminal.
    static let endingSignalsByDefault: Void = {
        for number in EndingSignals.numbers where EndingSignals.isIgnored(number) { signal(number, SIG_DFL) }
    }()

    struct Hung: Error, CustomStringConvertible {
        let arguments: [String]
        var description: String { "\(arguments.joined(separator: " ")) did not finish" }
    }

    /// What a run reads on standard input.
    enum Input {
        /// Nothing: `/dev/null`.
        case none
        /// A pipe that these bytes are written into, then closed; a reader that stops early
        /// ends the writing.
        case pipe(Data)
        /// An open descriptor, such as a terminal's.
        case descriptor(Int32)
    }

    /// Runs `executable ARGS` in `directory` with extra `environment` and `input`; kills it
    /// after `timeout` seconds.
    static func run(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String] = [:],
                    input: Input = .none, timeout: TimeInterval = 120) throws -> CLI.Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let scratch = FileManager.default.temporaryDirectory
        let outURL = scratch.appendingPathComponent("carousel-stdout-\(UUID().uuidString)")
        let errURL = scratch.appendingPathComponent("carousel-stderr-\(UUID().uuidString)")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        var writer: Thread?
        switch input {
        case .none:
            process.standardInput = FileHandle.nullDevice
        case .descriptor(let fd):
            process.standardInput = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
        case .pipe(let bytes):
            // Both ends close on exec, so that no child (this run's, or another test's
            // started meanwhile) holds the writing end open; the run's standard input is a
            // copy of the reading end, made for it alone.
            var ends: [Int32] = [-1, -1]
            #if os(Linux)
            typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
            guard try CFunction.load("pipe2", as: Pipe2.self)(&ends, O_CLOEXEC) == 0 else { throw POSIXError(.EMFILE) }
            #else
            guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            #endif
            process.standardInput = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
            // The bytes are written as the run reads them, as a shell's pipe feeds it.
            let fd = ends[1]
            writer = Thread { writeAndClose(fd, bytes) }
        }
        try process.run()
        if case .pipe = input, let handle = process.standardInput as? FileHandle { try handle.close() }
        writer?.start()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            throw Hung(arguments: [executable.lastPathComponent] + arguments)
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return CLI.Result(status: process.terminationStatus, stdout: (try? Data(contentsOf: outURL)) ?? Data(),
                          stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
    }
}

/// A scratch folder with small test images in it.
struct Workspace {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("carousel-cli-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: url.appendingPathComponent("imgs"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: url.appendingPathComponent("empty"), withIntermediateDirectories: true)
        for k in [1, 2, 10] {
            try write(Workspace.image(k), to: "imgs/\(k).png")
        }
        try Data("just text\n".utf8).write(to: url.appendingPathComponent("notes.png"))
        let good = try PNGCodec.encode(Workspace.image(3))
        try good.prefix(good.count / 2).write(to: url.appendingPathComponent("cut.png"))
        var corrupt = good
        corrupt[corrupt.count / 2] ^= 0xFF
        try corrupt.write(to: url.appendingPathComponent("corrupt.png"))
        try Data("existing".utf8).write(to: url.appendingPathComponent("keep.gif"))
        try Data("a file".utf8).write(to: url.appendingPathComponent("afile"))
    }

    /// A 48x24 image of a few flat colours, different for each k.
    static func image(_ k: Int) -> RGBAImage {
        var image = RGBAImage(width: 48, height: 24, fill: RGBA(r: UInt8(20 * k), g: 120, b: UInt8(255 - 20 * k)))
        for y in 6..<18 { for x in 10..<(14 + k) { image[x, y] = .white } }
        return image
    }

    func write(_ image: RGBAImage, to name: String) throws {
        try PNGCodec.encode(image).write(to: url.appendingPathComponent(name))
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func data(_ name: String) -> Data? { FileManager.default.contents(atPath: path(name)) }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    /// Temporary files left in the folder by an output (named `.NAME.carousel-XXXXXX`).
    var leftovers: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { $0.hasPrefix(".") }
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Writes `bytes` to the pipe `fd` as far as its reader takes them, then closes it; a reader
/// that stops early makes the write fail (SIGPIPE ignored), which ends it.
func writeAndClose(_ fd: Int32, _ bytes: Data) {
    signal(SIGPIPE, SIG_IGN)
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBytes { raw in write(fd, raw.baseAddress! + done, bytes.count - done) }
        if n <= 0 { break }
        done += n
    }
    close(fd)
}

/// C library functions that Swift's Glibc module does not declare (`pipe2`, the
/// pseudo-terminal calls), looked up by name.
enum CFunction {
    struct Missing: Error, CustomStringConvertible {
        let name: String
        var description: String { "\(name) is not in the C library" }
    }

    /// `RTLD_DEFAULT`, every loaded image, which Swift does not import: a null handle on
    /// glibc, -2 on Darwin (where dyld refuses a null one as an invalid handle).
    static var everyImage: UnsafeMutableRawPointer? {
        #if canImport(Darwin)
        UnsafeMutableRawPointer(bitPattern: -2)
        #else
        UnsafeMutableRawPointer(bitPattern: 0)
        #endif
    }

    static func load<T>(_ name: String, as type: T.Type) throws -> T {
        guard let symbol = dlsym(everyImage, name) else { throw Missing(name: name) }
        return unsafeBitCast(symbol, to: type)
    }
}
