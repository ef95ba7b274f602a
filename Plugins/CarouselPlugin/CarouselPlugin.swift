import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory carousel render … -o Docs/banner.gif`:
/// runs this package's `carousel` executable in the package that uses the plugin, so docs
/// media can be rendered into it. Relative paths are taken from that package's folder.
@main
struct CarouselPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "CarouselCLI")  // the `carousel` command's target
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        // SwiftPM shows what a plugin writes on its standard output, so carousel's error
        // line is passed on as a diagnostic, which SwiftPM writes to standard error.
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        for line in said.split(separator: "\n") {
            if line.hasPrefix("error: ") {
                Diagnostics.error(String(line.dropFirst("error: ".count)))
            } else {
                print(line)
            }
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw Failure(status: process.terminationStatus)
        }
    }

    /// The `carousel` run failed; it has said why on stderr.
    struct Failure: Error, CustomStringConvertible {
        let status: Int32
        var description: String { "carousel exited with status \(status)" }
    }
}
