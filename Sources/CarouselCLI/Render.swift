import ArgumentParser
import Carousel
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `carousel render`: the looping animation, as GIF, WebP or APNG.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Render the carousel as a looping GIF, animated WebP or APNG.")

    @OptionGroup var arguments: CarouselArguments

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file (.gif, .webp, .apng or .png); - for standard output, with --format. (default: carousel.gif, or carousel.webp or carousel.apng with that --format)", valueName: "OUT.gif"))
    var output: String?

    func run() throws {
        let start = Date()
        let options = try arguments.options()
        // Without -o, the name says what the file holds: carousel.webp or carousel.apng where
        // the format is given (`--format`, or the config's `format`).
        let output = output ?? "carousel." + (options.format.map(\.rawValue) ?? "gif")
        try OutputKind.animation.check(output)
        let format = try Render.format(options.format, output: output)
        if format != .gif { try arguments.refuseFlags([.colors, .dither], "applies to GIF only, not \(format.rawValue)") }
        try arguments.attributed { () throws(CarouselError) in if let refusal = options.sizeRefusal(format) { throw refusal } }
        let carousel = try arguments.carousel(options: options, output: output)
        let encoder = try arguments.attributed { () throws(CarouselError) in try carousel.encoder(for: format) }
        let reporter = arguments.progress(start: start, output: output)
        var bytes = 0
        try AtomicOutput.write(to: output) { sink throws(CarouselError) in
            try carousel.write(with: encoder, to: sink, name: output) { done, total in reporter.frame(done, of: total) }
            bytes = (sink as? FileDescriptorSink)?.count ?? 0
        }
        reporter.finish("\(output): \(carousel.frameCount) frames, \(Progress.length(carousel)) s, \(bytes) bytes")
    }

    /// `--format`, or the format the output's extension names (GIF for a name without one).
    static func format(_ given: OutputFormat?, output: String) throws(CLIError) -> OutputFormat {
        if let given { return given }
        if output == "-" { throw .usage("-o -: give --format gif, webp or apng for standard output") }
        guard let format = OutputFormat(path: output) else {
            throw .usage("-o \(output): unknown extension; use .gif, .webp, .apng or .png, or give --format gif, webp or apng")
        }
        return format
    }
}
