import Carousel
import CarouselSamples
import CarouselTestSupport
import Foundation
import Testing

/// Animated WebP and APNG round trips through independent decoders (libwebp's demuxer;
/// a reader written for the tests), over the same frame plan as the GIF.
struct FormatTests {
    static func carousel(loop: LoopMode = .forever, quality: Double? = nil, lossless: Bool = false) throws -> Carousel {
        var options = CarouselOptions()
        options.fps = 20
        options.hold = 0.3
        options.duration = 0.3
        options.loop = loop
        options.quality = quality
        options.lossless = lossless
        options.script = try Script(parsing: "autoplay; drag -20 0.2; release; hold 0.3")
        return try Carousel(images: CarouselRenderTests.flatItems(3), options: options)
    }

    @Test(arguments: [("a.gif", OutputFormat.gif), ("b.webp", .webp), ("c.apng", .apng), ("d.PNG", .apng), ("e/f.Gif", .gif)])
    func formatFromExtension(_ path: String, _ format: OutputFormat) {
        #expect(OutputFormat(extensionOf: path) == format)
    }

    @Test(arguments: ["a.bmp", "noextension", ".gif", "dir.gif/name"])
    func unknownExtension(_ path: String) {
        #expect(OutputFormat(extensionOf: path) == nil)
    }

    /// What `render` writes: the extension's format, GIF for a name without one, nothing for
    /// an extension no format has.
    @Test(arguments: [("a.webp", OutputFormat?.some(.webp)), ("/dev/stdout", .gif), ("/dev/fd/1", .gif), ("banner", .gif),
                      (".gif", .gif), ("dir.webp/name", .gif), ("a.bmp", nil), ("a.jpg", nil)])
    func formatOfAPath(_ path: String, _ format: OutputFormat?) {
        #expect(OutputFormat(path: path) == format)
    }

    /// A frames folder's names: five digits up to 100,000 frames, and in a larger folder every
    /// name as wide as the last, so that sorting the names sorts the frames. Before, frame
    /// 100,000 of a larger folder was `frame-100000.png` beside `frame-00000.png`, and sorted
    /// between `frame-10000.png` and `frame-10001.png`.
    @Test func frameNamesSortInFrameOrder() {
        #expect(PNGSequenceEncoder.fileName(7) == "frame-00007.png")
        #expect(PNGSequenceEncoder.fileName(99_999, of: 100_000) == "frame-99999.png")
        #expect(PNGSequenceEncoder.fileName(0, of: 100_000) == "frame-00000.png")
        for none in [0, -1, Int.min] {
            #expect(PNGSequenceEncoder.fileName(0, of: none) == "frame-00000.png", "of \(none)")
        }
        #expect(PNGSequenceEncoder.fileName(0, of: Int.max) == "frame-" + String(repeating: "0", count: 19) + ".png")
        #expect(PNGSequenceEncoder.fileName(0, of: 100_001) == "frame-000000.png")
        #expect(PNGSequenceEncoder.fileName(100_000, of: 100_001) == "frame-100000.png")
        #expect(PNGSequenceEncoder.fileName(5, of: 1) == "frame-00005.png")
        for count in [1, 99_999, 100_000, 100_001, 180_000, 1_000_001] {
            let indices = [0, 1, 9, 10, 9_999, 10_000, 10_001, 99_999, 100_000, 100_001, 999_999, 1_000_000]
                .filter { $0 < count }
            let names = indices.map { PNGSequenceEncoder.fileName($0, of: count) }
            #expect(names.sorted() == names, "\(count) frames")
            #expect(Set(names.map(\.count)).count == 1, "\(count) frames: names of one width")
        }
    }

    /// APNG: every decoded frame equals the exact frame, delays are exact fractions,
    /// frames after the first cover only what changed, and the loop count is `--loop`.
    @Test(arguments: [LoopMode.forever, LoopMode.plays(3)!])
    func apngIsExact(_ loop: LoopMode) throws {
        let carousel = try Self.carousel(loop: loop)
        let plan = carousel.plan()
        let data = try carousel.data(format: .apng)
        let apng = try DecodedAPNG(data)
        #expect(apng.width == carousel.width && apng.height == carousel.height)
        // The colour space every PNG of the project has (sRGB), before the animation control.
        let bytes = [UInt8](data)
        var types: [String] = [], at = 8
        while at + 8 <= bytes.count, types.count < 3 {
            let length = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: bytes[at + 4..<at + 8], as: UTF8.self))
            at += 12 + length
        }
        #expect(types == ["IHDR", "sRGB", "acTL"])
        #expect(apng.plays == (loop.plays ?? 0))
        #expect(apng.frames.count == plan.frames.count)
        var i = 0
        for (k, frame) in apng.frames.enumerated() {
            let (num, den) = apng.delays[k]
            #expect(num * plan.fps % den == 0)
            let span = num * plan.fps / den
            #expect(span == plan.frames[k].span, "frame \(k)")
            #expect(differingPixels(frame, carousel.frame(index: i)) == 0, "frame \(k) (timeline \(i))")
            i += span
        }
        #expect(i == carousel.frameCount)
        #expect(apng.rects[0] == (0, 0, carousel.width, carousel.height))
        #expect(apng.rects.dropFirst().contains { $0.2 * $0.3 < carousel.width * carousel.height }, "changed rectangles")
    }

    /// Lossless WebP: every frame exact, timestamps in milliseconds by cumulative rounding.
    @Test func losslessWebPIsExact() throws {
        let carousel = try Self.carousel(loop: .plays(2)!, lossless: true)
        let plan = carousel.plan()
        let webp = try DecodedWebP(try carousel.data(format: .webp))
        #expect(webp.width == carousel.width && webp.height == carousel.height)
        #expect(webp.loopCount == 2)
        #expect(webp.frames.count == plan.frames.count)
        for (k, frame) in webp.frames.enumerated() where k < plan.frames.count {
            #expect(differingPixels(frame, carousel.frame(index: plan.frames[k].source)) == 0, "frame \(k)")
            let end = plan.frames[k].source + plan.frames[k].span
            #expect(webp.timestamps[k] == (2000 * end + plan.fps) / (2 * plan.fps), "frame \(k) ends at round(1000 i / fps) ms")
        }
    }

    /// Lossless WebP on a transparent background gives back every pixel, the colour of a fully
    /// transparent one too: libwebp's `exact`, which it leaves off by default and then changes
    /// those colours (a frame's (0, 0, 0, 0) came back as (255, 0, 0, 0)).
    @Test func losslessWebPIsExactUnderTransparency() throws {
        let width = 40, height = 30
        var fading = RGBAImage(width: width, height: height)
        for y in 0..<height { for x in 0..<width { fading[x, y] = RGBA(r: 0, g: 0, b: 255, a: UInt8(x * 255 / (width - 1))) } }
        var solid = RGBAImage(width: width, height: height)
        for y in 0..<height { for x in 0..<width { solid[x, y] = RGBA(r: UInt8(x * 6), g: UInt8(y * 8), b: 40, a: 255) } }
        var half = RGBAImage(width: width, height: height)
        for y in 0..<height { for x in 0..<width { half[x, y] = RGBA(r: 250, g: 240, b: 10, a: (x + y) % 2 == 0 ? 127 : 128) } }
        var options = CarouselOptions()
        options.size = PixelSize(width: width, height: height)
        options.spacing = 6
        options.background = RGBA(r: 0, g: 0, b: 0, a: 0)
        options.hold = 0.2
        options.duration = 0.2
        options.lossless = true
        let carousel = try Carousel(images: [fading, solid, half], options: options)
        let plan = carousel.plan()
        let webp = try DecodedWebP(try carousel.data(format: .webp))
        #expect(webp.frames.count == plan.frames.count)
        for (k, frame) in webp.frames.enumerated() where k < plan.frames.count {
            #expect(frame.pixels == carousel.frame(index: plan.frames[k].source).pixels, "frame \(k)")
        }
    }

    /// A render whose transparent pixels lie at the canvas's edges and that is one frame (a
    /// letterboxed page on a transparent background; with `.footer`, the empty footer of one
    /// page too) says it has alpha, so a reader that trusts the `VP8X` flag shows those
    /// pixels transparent: libwebp writes the frame as the rectangle of its pixels that are
    /// not transparent, and derives the flag from that rectangle alone. The animation's
    /// background colour is transparent too. The frame decodes to the exact one (lossless), or
    /// to its alpha (lossy: WebP keeps alpha losslessly).
    @Test(arguments: [DotsPlacement.none, .footer], [true, false])
    func transparentEdgesSetTheAlphaFlag(_ dots: DotsPlacement, lossless: Bool) throws {
        var options = CarouselOptions()
        options.size = PixelSize(width: 120, height: 60)
        options.fit = .fit
        options.background = RGBA(r: 0, g: 0, b: 0, a: 0)
        options.dots.placement = dots
        options.lossless = lossless
        // A banner, not a flat item: of one frame written whole (a simple image, whose own
        // bitstream carries its alpha) and as its rectangle, libwebp keeps the smaller file.
        let carousel = try Carousel(images: ImageInputs.load(Array(SampleImages.urls.prefix(1))), options: options)
        let bytes = [UInt8](try carousel.data(format: .webp))
        #expect(carousel.plan().frames.count == 1)
        // Debian 12's libwebp (1.2.4) writes the rectangle, in an extended file; a libwebp that
        // keeps the whole frame writes a simple image, whose bitstream says it has alpha.
        if Array(bytes[8..<16]) == Array("WEBPVP8X".utf8) {
            #expect(bytes[20] & 0x10 != 0, "the alpha flag")
            if bytes[20] & 0x02 != 0 {
                #expect(Array(bytes[30..<34]) == Array("ANIM".utf8))
                #expect(Array(bytes[38..<42]) == [0, 0, 0, 0], "a transparent background colour")
            }
        } else {
            #expect(lossless && Array(bytes[12..<16]) == Array("VP8L".utf8) && bytes[24] & 0x10 != 0, "a simple lossless image with alpha")
        }
        let exact = carousel.frame(index: 0)
        #expect(stride(from: 3, to: exact.pixels.count, by: 4).contains { exact.pixels[$0] == 0 }, "a transparent letterbox")
        let webp = try DecodedWebP(Data(bytes))
        #expect(webp.frames.count == 1)
        if let frame = webp.frames.first {
            if lossless { #expect(differingPixels(frame, exact) == 0) }
            #expect(stride(from: 3, to: exact.pixels.count, by: 4).allSatisfy { frame.pixels[$0] == exact.pixels[$0] }, "alpha")
        }
    }

    /// Lossy WebP at the default quality stays close to the exact frames of the sample banners.
    @Test func lossyWebPIsClose() throws {
        var options = CarouselOptions()
        options.size = PixelSize(width: 320, height: 180)
        options.script = try Script(parsing: "hold 0.3; next 0.3; hold 0.3")
        let carousel = try Carousel(images: ImageInputs.load(SampleImages.urls), options: options)
        let webp = try DecodedWebP(try carousel.data(format: .webp))
        let plan = carousel.plan()
        #expect(webp.frames.count == plan.frames.count)
        #expect(webp.loopCount == 0)
        for (k, frame) in webp.frames.enumerated() where k < plan.frames.count {
            let exact = carousel.frame(index: plan.frames[k].source)
            var squared = 0.0
            for i in stride(from: 0, to: exact.pixels.count, by: 4) {
                for c in 0..<3 { let d = Double(frame.pixels[i + c]) - Double(exact.pixels[i + c]); squared += d * d }
            }
            let psnr = 10 * log10(255 * 255 / (squared / Double(exact.width * exact.height * 3)))
            #expect(psnr > 33, "frame \(k): \(psnr) dB")
        }
    }

    /// A rainbow of hues along its diagonal, and one of horizontal bands (a hue to a row): as
    /// the bands slide in beside the diagonal, their columns do not change.
    static func rainbows(size: Int = 32) -> [RGBAImage] {
        func hue(_ h: Double) -> RGBA {
            let channel = { (n: Double) -> UInt8 in
                let k = (n + h * 6).truncatingRemainder(dividingBy: 6)
                return UInt8((255 * (1 - max(0, min(1, min(k, 4 - k))))).rounded())
            }
            return RGBA(r: channel(5), g: channel(3), b: channel(1))
        }
        var diagonal = RGBAImage(width: size, height: size, fill: .clear)
        var bands = diagonal
        for y in 0..<size {
            for x in 0..<size {
                diagonal[x, y] = hue(0.9 * Double(x + y) / Double(2 * size))
                bands[x, y] = hue(0.8 * Double(y) / Double(size))
            }
        }
        return [diagonal, bands]
    }

    /// Lossy WebP frames leave nothing behind: every frame, the rest after the move too, has
    /// at most 4% of its 4x4 squares more than 24 levels off the exact frame in their mean
    /// colour. Written as sub-frames blended over the canvas, frames left thin lines of wrong
    /// colour where the rectangle's edge had passed: up to 93 of the 880 squares off, in seven
    /// frames more than 4%; as key frames, at most 9 (libwebp 1.2.4).
    @Test func lossyWebPLeavesNoTrail() throws {
        var options = CarouselOptions()
        options.size = PixelSize(width: 160, height: 90)
        options.dots.placement = .none
        options.script = try Script(parsing: "hold 0.2; next 0.5; hold 0.2")
        let carousel = try Carousel(images: Self.rainbows(), options: options)
        let plan = carousel.plan()
        let webp = try DecodedWebP(try carousel.data(format: .webp))
        #expect(webp.frames.count == plan.frames.count)
        for (k, frame) in webp.frames.enumerated() where k < plan.frames.count {
            let squares = squareMeanDifferences(frame, carousel.frame(index: plan.frames[k].source)).compactMap { $0 }
            let off = squares.filter { max(abs($0.r), abs($0.g), abs($0.b)) > 24 }.count
            #expect(off * 25 <= squares.count, "frame \(k): \(off) of \(squares.count) squares off")
        }
    }

    /// Settings a format does not have are refused, naming the option.
    @Test func formatOptionsAreChecked() throws {
        #expect(throws: CarouselError.invalidOption(key: .lossless, reason: "applies to WebP only, not gif")) {
            try Self.carousel(lossless: true).encoder(for: .gif)
        }
        #expect(throws: CarouselError.invalidOption(key: .quality, reason: "applies to WebP only, not apng")) {
            try Self.carousel(quality: 80).encoder(for: .apng)
        }
        var options = CarouselOptions()
        #expect(throws: CarouselError.invalidOption(key: .quality, reason: "must be 0...100, got 101")) {
            try options.set(.quality, to: .text("101"))
        }
    }

    /// An encoder's palette limit and quality set past their ranges after `init` are taken at
    /// the nearer end, as `init` takes them: the same bytes as the end itself. Before, the
    /// setters kept any value: `colors` below 2 wrote another GIF than 2 colours, and a
    /// `quality` of 1000 failed in libwebp ("Invalid WebPConfig").
    @Test func encoderSettingsSetPastTheirRangesAreClamped() throws {
        let carousel = try Self.carousel()
        func bytes(_ encoder: any AnimationEncoder) throws -> Data {
            let sink = MemorySink()
            try carousel.write(with: encoder, to: sink, name: "<memory>")
            return sink.data
        }
        for (set, end) in [(1000, 256), (Int.max, 256), (1, 2), (-5, 2), (Int.min, 2)] {
            var gif = GIFEncoder()
            gif.colors = set
            #expect(gif.colors == end)
            #expect(try bytes(gif) == bytes(GIFEncoder(colors: end)), "colors = \(set)")
        }
        for (set, end) in [(1000.0, 100.0), (.infinity, 100), (-5, 0), (-.infinity, 0), (.nan, 0)] {
            var webp = WebPEncoder()
            webp.quality = set
            #expect(webp.quality == end)
            #expect(WebPEncoder(quality: set).quality == end)
            #expect(try bytes(webp) == bytes(WebPEncoder(quality: end)), "quality = \(set)")
        }
    }

    /// A WebP's loop count is 16 bits: 65535 plays are written, 65536 (a GIF's most) refused,
    /// naming `--loop`, before anything is encoded, and by the encoder itself.
    @Test func webPPlaysAtMost65535Times() throws {
        let most = try DecodedWebP(try Self.carousel(loop: .plays(65535)!, lossless: true).data(format: .webp))
        #expect(most.loopCount == 65535)
        let carousel = try Self.carousel(loop: .plays(65536)!)
        #expect(throws: CarouselError.invalidOption(key: .loop, reason: "a WebP plays at most 65535 times (its loop count is 16 bits), got 65536")) {
            try carousel.encoder(for: .webp)
        }
        #expect(throws: CarouselError.output("<memory>", "a WebP plays at most 65535 times (its loop count is 16 bits), got 65536")) {
            try carousel.write(with: WebPEncoder(loop: .plays(65536)!), to: MemorySink(), name: "<memory>")
        }
        // The other formats take it: a GIF's NETSCAPE count is the repeats after the first play.
        #expect(try DecodedGIF([UInt8](try Self.carousel(loop: .plays(65536)!).data(format: .gif))).loopCount == 65535)
        #expect(try DecodedAPNG(try Self.carousel(loop: .plays(65536)!).data(format: .apng)).plays == 65536)
    }
}
