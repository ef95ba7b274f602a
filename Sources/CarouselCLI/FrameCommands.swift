import ArgumentParser
import Carousel
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `carousel frame`: one frame as PNG, for snapshot tests.
struct Frame: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write the frame shown at a time as PNG, in full colour and alpha: the picture the GIF's frame is made from, before its palette (and, on a transparent background, before its alpha is cut at 128).")

    @OptionGroup var arguments: CarouselArguments

    @Option(parsing: .unconditional, help: ArgumentHelp("Time: seconds, or 1.5s, 300ms; the frame shown then (frame i shows from i / fps, to the microsecond).", valueName: "SECONDS"))
    var at: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Output PNG; - for standard output.", valueName: "OUT.png"))
    var output: String

    func run() throws {
        let start = Date()
        try OutputKind.png("frame").check(output)
        let carousel = try arguments.carousel(output: output)
        // Spaces around it dropped, as the option table drops them (`CarouselOptions.set`).
        let trimmed = at.trimmingSpaces
        guard let time = MediaTime(parsing: trimmed) else {
            throw CLIError.usage("--at: \(MediaTime.optionRefusal(at))")
        }
        let index: Int
        do {
            index = try carousel.frameIndex(at: time)
        } catch CarouselError.timeOutsideTimeline(_, let length) {
            // A time just before the end that rounds to it (`4.5999999` of 4.6 s) lies in the
            // timeline, in its last frame.
            guard time == length, MediaTime.writes(trimmed, before: length) else {
                throw CLIError.usage("--at: must be in 0 ..< \(length.seconds) seconds (the times a frame is shown at), got \(at.shownTrimmed)")
            }
            index = carousel.frameCount - 1
        }
        let data = try encode(carousel.frame(index: index), name: output)
        try AtomicOutput.write(data, to: output)
        arguments.progress(start: start, output: output)
            .finish("\(output): frame \(index) of \(carousel.frameCount), \(data.count) bytes")
    }
}

/// `carousel frames`: every frame as PNG plus frames.json.
struct Frames: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write every frame as DIR/frame-00000.png ... and DIR/frames.json.")

    @OptionGroup var arguments: CarouselArguments

    @Option(name: .shortAndLong, help: ArgumentHelp("Output folder (new, empty, or a previous frames output).", valueName: "DIR"))
    var output: String

    func run() throws {
        let start = Date()
        try OutputKind.folder.check(output)
        let carousel = try arguments.carousel(options: arguments.options(), folder: output)
        let reporter = arguments.progress(start: start)
        try carousel.writeFrames(toFolder: output) { done, total in reporter.frame(done, of: total) }
        reporter.finish("\(output): \(carousel.frameCount) frames, \(Progress.length(carousel)) s")
    }
}

/// `carousel strip`: the padded strip.
struct Strip: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write the padded strip (clones, items, clones) the frames are cut from, as PNG.")

    @OptionGroup var arguments: CarouselArguments

    @Option(name: .shortAndLong, help: ArgumentHelp("Output PNG; - for standard output.", valueName: "OUT.png"))
    var output: String

    func run() throws {
        let start = Date()
        try OutputKind.png("strip").check(output)
        var options = try arguments.options()
        // The strip does not depend on the timeline: with no script given, the default
        // autoplay, which a long --hold or thousands of pictures take past the hour, is not
        // built (`strip --hold 3600` was refused for it). A script given is still checked.
        if options.script == nil { options.script = Script(steps: [.hold(1)]) }
        let carousel = try arguments.carousel(options: options, output: output)
        let data = try encode(carousel.strip, name: output)
        try AtomicOutput.write(data, to: output)
        let g = carousel.geometry
        arguments.progress(start: start, output: output)
            .finish("\(output): \(g.stripWidth)x\(g.height), \(g.leftClones) + \(g.count) + \(g.rightClones) items, \(data.count) bytes")
    }
}

private func encode(_ image: RGBAImage, name: String) throws(CarouselError) -> Data {
    do {
        return try PNGCodec.encode(image, name: name)
    } catch {
        throw .image(error)
    }
}
