import Carousel
import Foundation

/// The render a fuzzer's input stands for: small images, options and a script read from
/// raw bytes, rendered to a GIF (or an APNG or a WebP) in memory.
///
/// `Fuzz/Targets/encode.swift` runs it under AddressSanitizer (`scripts/fuzz` compiles this
/// file in), and the suite replays the seeds and every crasher through it (`FuzzCorpusTests`). The bytes choose among values
/// an encoder finds hard: images of a pixel or a few, one colour or noise, gradients a
/// level apart, translucent and transparent pixels; two colours to 256; every dither; an
/// opaque, translucent or transparent background; gaps, peeking layouts, page dots and
/// drags with a finger drawn. Every value goes through `CarouselOptions.set`, as the
/// command line's do, so a value out of range is refused with the same error. The
/// viewport is at most 48x48 (48x80 with the dots in the footer) and the timeline under
/// about 60 frames, so a run takes milliseconds.
public enum FuzzRender {
    /// Reads the bytes in order; past the end, every read is 0.
    public struct Reader {
        let bytes: [UInt8]
        var at = 0

        /// A reader at the start of `bytes`.
        public init(bytes: [UInt8]) { self.bytes = bytes }

        public mutating func next() -> Int {
            defer { at += 1 }
            return at < bytes.count ? Int(bytes[at]) : 0
        }

        /// One of `values`, chosen by the next byte.
        public mutating func pick<T>(_ values: [T]) -> T { values[next() % values.count] }
    }

    /// The images and options `bytes` stand for, or the error the options give.
    public static func carousel(_ bytes: [UInt8]) throws(CarouselError) -> (images: [RGBAImage], options: CarouselOptions) {
        var read = Reader(bytes: bytes)
        let count = 1 + read.next() % 4
        var options = CarouselOptions()
        let format = read.pick(["gif", "gif", "gif", "apng", "webp"])
        let width = 1 + read.next() % 48, height = 1 + read.next() % 48
        var settings: [(OptionKey, String)] = [(.format, format), (.size, "\(width)x\(height)")]
        if format == "gif" {
            settings.append((.colors, String(read.pick([256, 2, 3, 16, 64, 255, 1 + read.next()]))))
            settings.append((.dither, read.pick(["ordered", "diffusion", "none"])))
        }
        settings += [
            (.background, read.pick(["#000000", "#00000000", "#FFFFFF80", "#12345601", "#FFFFFF"])),
            (.spacing, String(read.next() % 9)),
            (.align, read.pick(["center", "start"])),
            (.clones, read.pick(["auto", "1", "2", "3", "set"])),
            (.fit, read.pick(["fill", "fit", "stretch"])),
            (.fps, String(1 + read.next() % 12)),
            (.hold, read.pick(["0.1", "0.25", "0.5"])),
            (.duration, read.pick(["0.1", "0.2", "0.4"])),
            (.easing, read.pick(["ease-in-out", "linear", "ease-out", "spring(0.5,0.3)"])),
            (.dots, read.pick(["none", "overlay", "footer"])),
            (.dotsSwitch, read.pick(["half", "start", "end"])),
            (.touches, read.pick(["show", "none"])),
            (.loop, read.pick(["forever", "once", "3"])),
        ]
        if read.next() % 2 == 1 { settings.append((.itemWidth, String(1 + read.next() % width))) }
        let distance = read.next() - 128, seconds = ["0.05", "0.3", "1"][read.next() % 3]
        let scripts = ["", "hold 0.2; drag \(distance) \(seconds); release; hold 0.3",
                       "drag \(distance) \(seconds); release", "hold 0.1; swipe next; hold 0.3; swipe prev",
                       "hold 0.2; drag \(distance) \(seconds); hold 0.1; drag \(-distance) 0.2; release; hold 0.2",
                       "autoplay 1"]
        let script = read.pick(scripts)
        if !script.isEmpty { settings.append((.script, script)) }
        for (key, value) in settings { try options.set(key, to: .text(value)) }
        let images = (0..<count).map { _ in image(&read) }
        return (images, options)
    }

    /// An image of at most 40x40 pixels in one of six kinds, its colours from the bytes.
    public static func image(_ read: inout Reader) -> RGBAImage {
        let width = 1 + read.next() % 40, height = 1 + read.next() % 40
        let kind = read.next() % 6
        let alpha = read.pick([255, 255, 0, 128, 127, 1 + read.next()])
        let base = (read.next(), read.next(), read.next())
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let o = (y * width + x) * 4
                let (r, g, b, a): (Int, Int, Int, Int)
                switch kind {
                case 0: (r, g, b, a) = (base.0, base.1, base.2, alpha)                      // one colour
                case 1: (r, g, b, a) = (base.0 + x, base.1 + y, base.2, alpha)              // levels apart
                case 2: (r, g, b, a) = (base.0 * x / width, base.1, 255 * y / height, alpha) // a gradient
                case 3: (r, g, b, a) = (read.next(), read.next(), read.next(), alpha)        // noise
                case 4: (r, g, b, a) = (read.next(), read.next(), read.next(), read.next())  // noise in alpha too
                default: let k = read.next() % 4                                              // four colours
                    (r, g, b, a) = (base.0 ^ (k * 64), base.1 ^ (k * 32), base.2, alpha)
                }
                pixels[o] = UInt8(r & 255); pixels[o + 1] = UInt8(g & 255)
                pixels[o + 2] = UInt8(b & 255); pixels[o + 3] = UInt8(a & 255)
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The carousel `bytes` stand for and its file, in the format they choose (GIF most
    /// often); throws what the options or the render throw.
    public static func render(_ bytes: [UInt8]) throws(CarouselError) -> (carousel: Carousel, format: OutputFormat, data: Data) {
        let (images, options) = try carousel(bytes)
        let format = options.format ?? .gif
        let carousel = try Carousel(images: images, options: options)
        return (carousel, format, try carousel.data(format: format))
    }

    /// What is wrong with `data`, `carousel` rendered in `format`, a line each; none for a
    /// sound file. Every file decodes at the carousel's size and shows an image at every
    /// timeline frame. An APNG (read with ``APNGDecoder``) shows each timeline frame exactly,
    /// for as many frames as its delay, an exact fraction, says. A lossy WebP (read with
    /// libwebp's demuxer) ends each of its frames where a timeline frame ends, in
    /// milliseconds rounded half up. A GIF (read with giflib) shows exactly the pixels its
    /// timeline frame has opaque (alpha 128 or more): what the disposal and clearing of a
    /// transparent background must get right. Nor may a GIF keep Pillow from reading its
    /// transparency (``DecodedGIF/pillowProblems``).
    public static func problems(_ carousel: Carousel, format: OutputFormat, data: Data) -> [String] {
        let fps = carousel.options.fps
        func size(_ width: Int, _ height: Int, of kind: String) -> String? {
            width == carousel.width && height == carousel.height ? nil
                : "the \(kind) is \(width)x\(height), the carousel \(carousel.width)x\(carousel.height)"
        }
        switch format {
        case .apng:
            let apng: APNGDecoder
            do { apng = try APNGDecoder(data, name: "fuzz.apng") } catch { return ["the APNG does not decode: \(error)"] }
            if let wrong = size(apng.width, apng.height, of: "APNG") { return [wrong] }
            var problems: [String] = [], shown = 0
            for (index, (image, delay)) in zip(apng.frames, apng.delays).enumerated() {
                let (ticks, rest) = (delay.numerator * fps).quotientAndRemainder(dividingBy: max(1, delay.denominator))
                guard rest == 0, ticks >= 1 else {
                    return problems + ["APNG frame \(index) shows for \(delay.numerator)/\(delay.denominator) s, no whole number of frames at \(fps) fps"]
                }
                for k in shown..<min(shown + ticks, carousel.frameCount) where image != carousel.frame(index: k) {
                    problems.append("timeline frame \(k): the APNG's pixels differ from the frame's")
                }
                shown += ticks
            }
            if shown != carousel.frameCount { problems.append("the APNG shows \(shown) timeline frames of \(carousel.frameCount)") }
            return problems
        case .webp:
            let webp: DecodedWebP
            do { webp = try DecodedWebP(data) } catch { return ["libwebp cannot decode the WebP: \(error)"] }
            if let wrong = size(webp.width, webp.height, of: "WebP") { return [wrong] }
            let ends = Set((1...carousel.frameCount).map { (2000 * $0 + fps) / (2 * fps) })
            var problems = webp.timestamps.filter { !ends.contains($0) }.map { "a WebP frame ends at \($0) ms, where no timeline frame ends" }
            if webp.timestamps != webp.timestamps.sorted() || Set(webp.timestamps).count != webp.timestamps.count {
                problems.append("the WebP's frames end at \(webp.timestamps) ms, not in order")
            }
            let total = (2000 * carousel.frameCount + fps) / (2 * fps)
            if webp.timestamps.last != total { problems.append("the WebP lasts \(webp.timestamps.last ?? 0) ms, the timeline \(total)") }
            return problems
        case .gif:
            let gif: DecodedGIF
            do { gif = try DecodedGIF([UInt8](data)) } catch { return ["giflib cannot decode the GIF: \(error)"] }
            if let wrong = size(gif.width, gif.height, of: "GIF") { return [wrong] }
            let shown = gif.timelineFrames(fps: carousel.options.fps)
            var problems = shown.count == carousel.frameCount ? []
                : ["the GIF shows \(shown.count) timeline frames of \(carousel.frameCount)"]
            for (k, image) in shown.prefix(carousel.frameCount).enumerated() {
                let wrong = DecodedGIF.transparencyMismatches(carousel.frame(index: k), image)
                if wrong > 0 { problems.append("timeline frame \(k): \(wrong) pixels transparent in the GIF and not in the frame, or the reverse") }
            }
            return problems + gif.pillowProblems
        }
    }
}
