import ArgumentParser
import Carousel
import Foundation

/// `carousel render`: the looping GIF.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Render the carousel as a looping GIF.")

    @OptionGroup var arguments: CarouselArguments

    @Option(name: .shortAndLong, help: ArgumentHelp("Output GIF; - for standard output.", valueName: "OUT.gif"))
    var output = "carousel.gif"

    func run() throws {
        let start = Date()
        let carousel = try arguments.carousel()
        let reporter = Progress(quiet: arguments.isQuiet, start: start)
        var bytes = 0
        try AtomicOutput.write(to: output) { sink throws(CarouselError) in
            try carousel.write(with: carousel.gifEncoder, to: sink, name: output) { done, total in reporter.frame(done, of: total) }
            bytes = (sink as? FileDescriptorSink)?.count ?? 0
        }
        reporter.finish("\(output): \(carousel.frameCount) frames, \(Progress.seconds(carousel.timeline.length)) s, \(bytes) bytes")
    }
}
