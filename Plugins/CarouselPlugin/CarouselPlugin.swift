import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory carousel render … -o Docs/banner.gif`:
/// runs this package's `carousel` executable in the package that uses the plugin, so docs
/// media can be rendered into it. Relative paths are taken from that package's folder.
@main
struct CarouselPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        // SwiftPM reads what a plugin writes on its standard output as text, so an animation
        // written there (`-o -`) would not arrive as written; it is refused before carousel runs.
        if let output = Self.standardOutput(in: arguments) {
            throw Refusal(description: "\(output) -: SwiftPM passes a plugin's standard output on as text, not bytes; "
                          + "write to a file (-o Docs/banner.gif), or run the executable itself for -o -")
        }
        let tool = try context.tool(named: "CarouselCLI")  // the `carousel` command's target
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        // SwiftPM shows what a plugin writes on its standard output, so carousel's error
        // line is passed on as a diagnostic, which SwiftPM writes to standard error.
        let errors = Pipe()
        process.standardError = errors
        // Ctrl-C reaches SwiftPM, which passes SIGINT on to the plugin alone: carousel runs in
        // a process group of its own. Each ending signal is passed on to it, so it removes
        // its temporary file and leaves the target as it was (spec section 5c), as it does
        // when run itself; without this it went on rendering and wrote the target after
        // `swift package` had exited 130. The handlers are in place before carousel starts, so
        // no signal ends the plugin alone; one before it starts has no one to reach (a process
        // identifier of 0 would be the plugin's own group) and the parent's watch below stops it.
        // The plugin catches them with a handler that does nothing rather than ignoring them:
        // a signal ignored is ignored in carousel too (a run keeps the signals it was started
        // with ignored, as under `nohup`), where a handler is reset to the default at `exec`.
        let child = Child(process: process)
        let forwarded = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number) { _ in }
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { child.signal(number) }
            source.resume()
            return source
        }
        try process.run()
        // SwiftPM ended by a signal it does not pass on (SIGTERM, as a CI job's timeout sends
        // it, or SIGKILL) leaves the plugin running with no one to report to, and carousel with
        // it: once the plugin's parent is gone, carousel is stopped as a hangup stops it.
        let parent = getppid()
        let watch = DispatchSource.makeTimerSource(queue: .global())
        watch.schedule(deadline: .now() + .milliseconds(200), repeating: .milliseconds(200))
        watch.setEventHandler { if getppid() != parent { child.signal(SIGHUP) } }
        watch.resume()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        watch.cancel()
        forwarded.forEach { $0.cancel() }
        for line in said.split(separator: "\n") {
            if line.hasPrefix("error: ") {
                Diagnostics.error(String(line.dropFirst("error: ".count)))
            } else {
                print(line)
            }
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw Failure(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal)
        }
    }

    /// The output option of `arguments` that names standard output (`-o -`, `--output -`,
    /// `-o=-`, `--output=-`), as it was written, or nil. Arguments after `--` are images.
    static func standardOutput(in arguments: [String]) -> String? {
        for (k, argument) in arguments.enumerated() {
            if argument == "--" { return nil }
            if argument == "-o=-" || argument == "--output=-" { return String(argument.dropLast(2)) }
            if argument == "-o" || argument == "--output", k + 1 < arguments.count, arguments[k + 1] == "-" { return argument }
        }
        return nil
    }

    /// The `carousel` process, as the signal and watch handlers reach it from Dispatch's
    /// threads (where a handler may have to be `Sendable`, and `Process` is not in every SDK).
    struct Child: @unchecked Sendable {
        let process: Process

        /// Sends `number` to carousel once it runs (a process identifier of 0 would be the
        /// plugin's own group).
        func signal(_ number: Int32) {
            let pid = process.processIdentifier
            if pid > 0 { kill(pid, number) }
        }
    }

    /// The `carousel` run failed; it has said why on stderr.
    ///
    /// `status` is carousel's exit status, or the signal that ended it (SIGKILL, as an out-of-memory kill
    /// sends it; SIGINT, SIGTERM and SIGHUP it catches, and exits with 128 + the signal).
    struct Failure: Error, CustomStringConvertible {
        let status: Int32
        var signalled = false
        var description: String {
            signalled ? "carousel was ended by signal \(status)" : "carousel exited with status \(status)"
        }
    }

    /// Arguments the plugin cannot pass on, and why.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }
}
