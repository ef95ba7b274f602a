@testable import Carousel
import CarouselTestSupport
import CLibWebP
import Foundation
import Testing

/// A WebP of many frames is assembled in parts, each by its own libwebp encoder, and joined
/// into one file: the same frames at the same times as one part gives.
struct WebPPartsTests {
    func bytes(_ carousel: Carousel, lossless: Bool, framesPerPart: Int) throws -> Data {
        var encoder = WebPEncoder(lossless: lossless)
        encoder.framesPerPart = framesPerPart
        let sink = MemorySink()
        try carousel.write(with: encoder, to: sink, name: "<memory>")
        return sink.data
    }

    /// Parts of four frames against one part, opaque frames: a valid RIFF whose size is the
    /// file's, the same frames decoded at the same times. Lossless frames after a part's
    /// first are rectangles of what changed, so the parts' file differs from one part's
    /// bytes, which says the parts were made.
    @Test(arguments: [false, true])
    func partsShowTheSameFramesAsOnePart(lossless: Bool) throws {
        let carousel = try FormatTests.carousel()
        let plan = carousel.plan()
        try #require(plan.frames.count > 12, "\(plan.frames.count) planned frames")
        let whole = try bytes(carousel, lossless: lossless, framesPerPart: .max)
        let parted = try bytes(carousel, lossless: lossless, framesPerPart: 4)
        let chunks = try #require([UInt8](parted).withUnsafeBytes { WebPEncoder.chunks($0) })
        #expect(Array(chunks.map(\.fourCC).prefix(2)) == ["VP8X", "ANIM"])
        #expect(chunks.dropFirst(2).allSatisfy { $0.fourCC == "ANMF" })
        let wholeFrames = try #require([UInt8](whole).withUnsafeBytes { WebPEncoder.chunks($0) }).filter { $0.fourCC == "ANMF" }.count
        #expect(chunks.count - 2 == wholeFrames, "each frame libwebp writes in one part, once")
        let size = parted[4..<8].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        #expect(size == parted.count - 8)
        if lossless { #expect(parted != whole) }
        let a = try DecodedWebP(whole), b = try DecodedWebP(parted)
        #expect(a.timestamps == b.timestamps && a.loopCount == b.loopCount)
        try #require(a.frames.count == b.frames.count && a.frames.count > 12)
        let differing = a.frames.indices.filter { a.frames[$0] != b.frames[$0] }
        #expect(differing.isEmpty, "frames \(differing) differ")
    }

    /// A part starts only at an opaque frame, which libwebp writes over the whole canvas:
    /// with the dots in a footer on a transparent background, every frame has transparent
    /// pixels and the file is one part, byte for byte. Where the items cover the viewport in
    /// the rests, parts start there, and the frames are the same.
    @Test func noPartStartsAtAFrameWithTransparentPixels() throws {
        var options = try FormatTests.carousel().options
        options.background = RGBA(r: 0, g: 0, b: 0, a: 0)
        options.spacing = 6
        options.dots.placement = .footer
        let footer = try Carousel(images: CarouselRenderTests.flatItems(3), options: options)
        try #require(footer.plan().frames.count > 12)
        for lossless in [false, true] {
            #expect(try bytes(footer, lossless: lossless, framesPerPart: 4) == bytes(footer, lossless: lossless, framesPerPart: .max))
        }
        options.dots.placement = .overlay
        let overlay = try Carousel(images: CarouselRenderTests.flatItems(3), options: options)
        let plan = overlay.plan()
        try #require(plan.frames.contains { plan.picture($0.source).isOpaque } && plan.frames.contains { !plan.picture($0.source).isOpaque })
        for lossless in [false, true] {
            let a = try DecodedWebP(bytes(overlay, lossless: lossless, framesPerPart: .max))
            let b = try DecodedWebP(bytes(overlay, lossless: lossless, framesPerPart: 4))
            #expect(a.timestamps == b.timestamps && a.frames == b.frames, "lossless: \(lossless)")
        }
    }

    /// A file whose only pixels that are not opaque come in a later part still says it has
    /// alpha (the `VP8X` flags byte), and shows them.
    @Test func alphaInALaterPartMarksTheFile() throws {
        var options = try FormatTests.carousel().options
        options.background = RGBA(r: 0, g: 0, b: 0, a: 0)
        options.size = PixelSize(width: 48, height: 20)
        options.script = try Script(parsing: "hold 0.6; next 0.6; hold 0.6; next 0.6; hold 0.3")
        var items = CarouselRenderTests.flatItems(3)
        for y in 0..<items[2].height { for x in 0..<8 { items[2][x, y] = RGBA(r: 0, g: 0, b: 0, a: 0) } }
        let carousel = try Carousel(images: items, options: options)
        let plan = carousel.plan()
        let translucent = try #require(plan.frames.firstIndex { !plan.picture($0.source).isOpaque })
        try #require(translucent > 8 && plan.picture(plan.frames[4].source).isOpaque, "frame \(translucent) is the first with alpha")
        let parted = try bytes(carousel, lossless: false, framesPerPart: 4)
        let whole = try bytes(carousel, lossless: false, framesPerPart: .max)
        #expect(parted[20] & WebPEncoder.alphaFlag != 0 && whole[20] & WebPEncoder.alphaFlag != 0)
        let a = try DecodedWebP(whole), b = try DecodedWebP(parted)
        #expect(a.timestamps == b.timestamps && a.frames == b.frames)
        #expect(b.frames.contains { frame in stride(from: 3, to: frame.pixels.count, by: 4).contains { frame.pixels[$0] == 0 } })
    }

    /// Bytes in memory through a sink that cannot write over them, as standard output and
    /// pipes are: the parts' frame chunks wait for the RIFF size.
    final class AppendOnlySink: ByteSink {
        var data = Data()
        func write(_ bytes: UnsafeRawBufferPointer) throws(CarouselError) { data.append(contentsOf: bytes) }
    }

    /// A sink that can write over what it wrote (memory, an output's temporary file) gets
    /// each part's frames as the part comes, and the RIFF size and flags at the end; one that
    /// cannot (a pipe) gets them all at the end, kept in memory or, past a limit, in a
    /// temporary file. The same bytes every way, and through the temporary file an output is
    /// written to, with alpha in a later part too.
    @Test(arguments: [false, true])
    func partsStreamedOrHeldAreTheSameFile(lossless: Bool) throws {
        var options = try FormatTests.carousel().options
        options.background = RGBA(r: 0, g: 0, b: 0, a: 0)
        options.script = try Script(parsing: "hold 0.6; next 0.6; hold 0.6; next 0.6; hold 0.3")
        var items = CarouselRenderTests.flatItems(3)
        for y in 0..<items[2].height { for x in 0..<8 { items[2][x, y] = RGBA(r: 0, g: 0, b: 0, a: 0) } }
        for carousel in [try FormatTests.carousel(), try Carousel(images: items, options: options)] {
            var encoder = WebPEncoder(lossless: lossless)
            encoder.framesPerPart = 4
            let memory = MemorySink(), appendOnly = AppendOnlySink()
            let report = try encoder.encodeReporting(carousel.plan(), to: memory, name: "<memory>")
            #expect(report.parts > 2)
            #expect(try encoder.encodeReporting(carousel.plan(), to: appendOnly, name: "<pipe>").spilled == false)
            #expect(memory.data == appendOnly.data)
            // Past the bytes that wait in memory, frame chunks wait in a temporary file.
            for limit in [0, 300] {
                var spilling = encoder
                spilling.heldInMemory = limit
                let waited = AppendOnlySink()
                #expect(try spilling.encodeReporting(carousel.plan(), to: waited, name: "<pipe>").spilled)
                #expect(waited.data == memory.data, "held in memory up to \(limit) bytes")
            }
            let size = memory.data[4..<8].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
            #expect(size == memory.data.count - 8)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("carousel-webp-parts-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("a.webp").path
            try AtomicOutput.write(to: path) { sink throws(CarouselError) in
                #expect((sink as? any RewritableSink)?.canRewrite == true)
                try carousel.write(with: encoder, to: sink, name: path)
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == memory.data)
        }
    }

    /// The header made for a file whose first part came as a still image is the one libwebp
    /// writes: the canvas, background colour and loop count, for the encoder's two
    /// background colours and for one whose bytes differ.
    @Test func madeHeaderIsLibwebps() throws {
        for (loop, background) in [(LoopMode.forever, RGBA.white), (LoopMode.plays(3)!, RGBA(r: 0, g: 0, b: 0, a: 0))] {
            var options = try FormatTests.carousel().options
            options.background = background
            options.loop = loop
            let carousel = try Carousel(images: CarouselRenderTests.flatItems(3), options: options)
            let plan = carousel.plan()
            let sink = MemorySink()
            #expect(try WebPEncoder(loop: loop).encodeReporting(plan, to: sink, name: "m").parts == 1)
            let file = [UInt8](sink.data)
            let head = try #require(file.withUnsafeBytes { WebPEncoder.animation($0) }?.head)
            var animOptions = WebPAnimEncoderOptions()
            try #require(carousel_webp_anim_encoder_options_init(&animOptions) != 0)
            animOptions.anim_params.loop_count = Int32(loop.plays ?? 0)
            if background.a < 255 { animOptions.anim_params.bgcolor = 0 }
            let made = PartJoiner.header(width: plan.width, height: plan.height, options: animOptions)
            var libwebps = Array(file[..<head.upperBound])
            libwebps.replaceSubrange(4..<8, with: [0, 0, 0, 0])
            libwebps[20] &= ~WebPEncoder.alphaFlag
            #expect(made == libwebps, "loop \(loop)")
        }
        // A colour whose bytes differ, and an odd canvas, straight through libwebp.
        var animOptions = WebPAnimEncoderOptions()
        try #require(carousel_webp_anim_encoder_options_init(&animOptions) != 0)
        animOptions.anim_params.bgcolor = 0x1122_3344
        animOptions.anim_params.loop_count = 517
        let encoder = try #require(carousel_webp_anim_encoder_new(37, 23, &animOptions))
        defer { WebPAnimEncoderDelete(encoder) }
        var config = WebPConfig()
        try #require(carousel_webp_config_init(&config) != 0)
        config.lossless = 1
        for (k, grey) in [UInt8(40), 200].enumerated() {
            let image = RGBAImage(width: 37, height: 23, fill: RGBA(r: grey, g: grey, b: grey))
            let added = try WebPEncoder.withPicture(of: image, frame: k, name: "m") { picture in
                WebPAnimEncoderAdd(encoder, &picture, Int32(100 * k), &config) != 0
            }
            try #require(added)
        }
        try #require(WebPAnimEncoderAdd(encoder, nil, 200, nil) != 0)
        var data = WebPData()
        try #require(WebPAnimEncoderAssemble(encoder, &data) != 0)
        defer { WebPDataClear(&data) }
        let file = [UInt8](UnsafeRawBufferPointer(start: data.bytes, count: data.size))
        let head = try #require(file.withUnsafeBytes { WebPEncoder.animation($0) }?.head)
        var libwebps = Array(file[..<head.upperBound])
        libwebps.replaceSubrange(4..<8, with: [0, 0, 0, 0])
        #expect(PartJoiner.header(width: 37, height: 23, options: animOptions) == libwebps)
    }

    /// libwebp writes a part as a still image where every frame after its first is within
    /// its lossy tolerance of the one before (here one level apart: two pictures 100 and 101
    /// grey slide past each other). The part's first frame, encoded again, is that part's one
    /// frame chunk, shown for the part's time; the file is not made again in one part. Each
    /// frame time shows what one part shows there, to within lossy coding.
    @Test func aPartWrittenAsAStillIsOneFrameChunk() throws {
        var options = CarouselOptions()
        options.fps = 20
        options.dots.placement = .none
        options.script = try Script(parsing: "hold 0.3; next 0.6; hold 0.3; next 0.3; hold 0.3")
        let items = [RGBAImage(width: 48, height: 20, fill: RGBA(r: 100, g: 100, b: 100)),
                     RGBAImage(width: 48, height: 20, fill: RGBA(r: 101, g: 101, b: 101)),
                     RGBAImage(width: 48, height: 20, fill: RGBA(r: 200, g: 50, b: 50))]
        let carousel = try Carousel(images: items, options: options)
        let plan = carousel.plan()
        var encoder = WebPEncoder()
        encoder.framesPerPart = 4
        for (k, sink) in [MemorySink() as any ByteSink, AppendOnlySink()].enumerated() {
            let report = try encoder.encodeReporting(plan, to: sink, name: "<memory>")
            #expect(report.stillParts > 0 && report.parts > report.stillParts, "\(report)")
            let parted = k == 0 ? (sink as! MemorySink).data : (sink as! AppendOnlySink).data
            let chunks = try #require([UInt8](parted).withUnsafeBytes { WebPEncoder.chunks($0) })
            #expect(chunks.map(\.fourCC) == ["VP8X", "ANIM"] + Array(repeating: "ANMF", count: chunks.count - 2))
            let size = parted[4..<8].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
            #expect(size == parted.count - 8)
            let whole = try DecodedWebP(carousel.data(format: .webp))
            let split = try DecodedWebP(parted)
            #expect(split.frames.count > whole.frames.count, "a frame chunk where each part starts")
            #expect(split.timestamps.last == whole.timestamps.last)
            // What each shows at the start of every timeline frame.
            func shown(_ file: DecodedWebP, at ms: Int) -> RGBAImage { file.frames[file.timestamps.firstIndex { $0 > ms }!] }
            for i in 0..<plan.timelineFrames {
                let ms = WebPEncoder.milliseconds(i, fps: plan.fps)
                let a = shown(whole, at: ms), b = shown(split, at: ms)
                let worst = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
                #expect(worst <= 3, "frame \(i): \(worst) levels apart")
            }
        }
    }

    /// A render of one distinct frame, which libwebp assembles as a still image, is written
    /// as an animation of one frame chunk, so the file keeps its loop count and its length as
    /// a GIF or an APNG of it does, lossy and lossless; the frame is the still's. Before, the
    /// file was the still image, with neither.
    @Test(arguments: [false, true])
    func oneDistinctFrameKeepsItsLoopAndLength(lossless: Bool) throws {
        var options = try FormatTests.carousel().options
        options.script = try Script(parsing: "hold 2")
        let carousel = try Carousel(images: CarouselRenderTests.flatItems(3), options: options)
        let plan = carousel.plan()
        try #require(plan.frames.count == 1)
        let sink = MemorySink()
        let report = try WebPEncoder(lossless: lossless, loop: LoopMode.plays(3)!).encodeReporting(plan, to: sink, name: "m")
        #expect(report == WebPEncoder.PartsReport(parts: 1, stillParts: 1, spilled: false))
        let file = [UInt8](sink.data)
        let chunks = try #require(file.withUnsafeBytes { WebPEncoder.chunks($0) })
        #expect(chunks.map(\.fourCC) == ["VP8X", "ANIM", "ANMF"])
        let size = file[4..<8].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        #expect(size == file.count - 8)
        let decoded = try DecodedWebP(sink.data)
        #expect(decoded.loopCount == 3 && decoded.timestamps == [2000])
        // The frame is the one a still of that picture shows.
        var config = WebPConfig()
        try #require(carousel_webp_config_init(&config) != 0)
        config.lossless = lossless ? 1 : 0
        config.quality = lossless ? 75 : 97
        config.method = 4
        config.use_sharp_yuv = 1
        let still = try WebPEncoder.still(plan.picture(plan.frames[0].source), frame: 0, config: &config, name: "m")
        let alone = try DecodedWebP(Data(still))
        #expect(decoded.frames == alone.frames)
        if lossless { #expect(decoded.frames == [plan.picture(plan.frames[0].source)]) }
    }

    /// A part takes at most ``WebPEncoder/pixelsPerPart`` pixels of frames, and at least 16
    /// frames: 48x20 frames are one part of a short script by default, and parts of 16 or
    /// 20 frames under a smaller limit, showing the same frames.
    @Test func partsHoldAtMostAPixelLimit() throws {
        var options = try FormatTests.carousel().options
        options.script = try Script(parsing: "autoplay 3; hold 0.3")
        let carousel = try Carousel(images: CarouselRenderTests.flatItems(3), options: options)
        let plan = carousel.plan()
        try #require(plan.frames.count > 48, "\(plan.frames.count) planned frames")
        var encoder = WebPEncoder(lossless: true)
        #expect(encoder.partFrames(width: 48, height: 20) == 1024)
        #expect(encoder.partFrames(width: 640, height: 360) == 72)
        #expect(encoder.partFrames(width: 4096, height: 4096) == 16)
        let whole = MemorySink()
        #expect(try encoder.encodeReporting(plan, to: whole, name: "m").parts == 1)
        for (limit, frames) in [(48 * 20 * 20, 20), (1, 16)] {
            encoder.pixelsPerPart = limit
            #expect(encoder.partFrames(width: 48, height: 20) == frames)
            let sink = MemorySink()
            let report = try encoder.encodeReporting(plan, to: sink, name: "m")
            #expect(report.parts >= 2 && report.parts <= (plan.frames.count + frames - 1) / frames, "\(report)")
            let a = try DecodedWebP(whole.data), b = try DecodedWebP(sink.data)
            #expect(a.timestamps == b.timestamps && a.frames == b.frames)
        }
    }

    /// Only an animation of `VP8X`, `ANIM` and frame chunks is joined as libwebp assembled
    /// it; a still image is not, nor is a file that is not a whole RIFF.
    @Test func onlyAnimationsJoinAsAssembled() throws {
        let animation = [UInt8](try bytes(FormatTests.carousel(), lossless: false, framesPerPart: .max))
        var still: [UInt8] = Array("RIFF".utf8) + [14, 0, 0, 0] + Array("WEBP".utf8) + Array("VP8L".utf8) + [1, 0, 0, 0, 0x2F, 0]
        let parts = try #require(animation.withUnsafeBytes { WebPEncoder.animation($0) })
        #expect(parts.head.lowerBound == 12 && parts.frames.upperBound == animation.count)
        #expect(still.withUnsafeBytes { WebPEncoder.animation($0) } == nil)
        #expect(still.withUnsafeBytes { WebPEncoder.chunks($0) }?.map(\.fourCC) == ["VP8L"])
        still.removeLast()
        #expect(still.withUnsafeBytes { WebPEncoder.chunks($0) } == nil, "a chunk past the end of the file")
    }
}
