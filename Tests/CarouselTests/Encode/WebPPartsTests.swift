@testable import Carousel
import CarouselTestSupport
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

    /// A part that is not an animation of frame chunks (libwebp writes one frame as a still
    /// image) cannot be joined; nor can a file that is not a whole RIFF.
    @Test func onlyAnimationsJoin() throws {
        let animation = [UInt8](try bytes(FormatTests.carousel(), lossless: false, framesPerPart: .max))
        var still: [UInt8] = Array("RIFF".utf8) + [14, 0, 0, 0] + Array("WEBP".utf8) + Array("VP8L".utf8) + [1, 0, 0, 0, 0x2F, 0]
        func joins(_ files: [[UInt8]]) -> Bool {
            // Each file's bytes, alive while they are joined.
            let buffers = files.map { file in
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: file.count, alignment: 1)
                buffer.copyBytes(from: file)
                return buffer
            }
            defer { buffers.forEach { $0.deallocate() } }
            return WebPEncoder.joined(buffers.map { UnsafeRawBufferPointer($0) }) != nil
        }
        #expect(joins([animation, animation]))
        #expect(still.withUnsafeBytes { WebPEncoder.chunks($0) }?.map(\.fourCC) == ["VP8L"])
        #expect(!joins([animation, still]))
        #expect(!joins([still, animation]))
        #expect(!joins([]))
        still.removeLast()
        #expect(still.withUnsafeBytes { WebPEncoder.chunks($0) } == nil, "a chunk past the end of the file")
    }
}
