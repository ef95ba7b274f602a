import Carousel
import CarouselTestSupport
import Testing

struct GIFWriterTests {
    /// Frames of few colours, each a different picture.
    static func frames(count: Int, width: Int = 24, height: Int = 10) -> [IndexedFrame] {
        (0..<count).map { k in
            var image = RGBAImage(width: width, height: height, fill: RGBA(r: UInt8(40 * k), g: 200, b: 10))
            for x in 0..<width { image[x, (x + k) % height] = RGBA(r: 255, g: UInt8(x * 9), b: UInt8(k * 30)) }
            return Quantizer().quantize(image)
        }
    }

    @Test(arguments: [LoopMode.forever, .once, LoopMode.plays(3)!])
    func roundTripsThroughGiflib(_ loop: LoopMode) throws {
        let frames = Self.frames(count: 4)
        let delays = [4, 2, 250, 7]
        let sink = MemorySink()
        let writer = try GIFWriter(sink: sink, name: "t.gif", width: 24, height: 10, loop: loop)
        for (frame, delay) in zip(frames, delays) { try writer.write(frame, delay: delay) }
        try writer.close()
        let gif = try DecodedGIF([UInt8](sink.data))
        #expect(gif.version == "GIF89a")
        #expect(gif.width == 24 && gif.height == 10)
        #expect(gif.loopCount == loop.netscapeCount)
        #expect(gif.delays == delays)
        #expect(gif.frames.count == 4)
        for (decoded, frame) in zip(gif.frames, frames) {
            #expect(differingPixels(decoded, frame.expanded()) == 0)
        }
        #expect(gif.paletteSizes.allSatisfy { $0 >= 2 && $0 & ($0 - 1) == 0 })
        #expect(sink.data.last == 0x3B, "GIF trailer written once at the end")
    }

    /// A delay is taken at the nearer end of the GIF's 16 bits.
    @Test func delaysAreClampedToSixteenBits() throws {
        let frames = Self.frames(count: 3)
        let sink = MemorySink()
        let writer = try GIFWriter(sink: sink, name: "t.gif", width: 24, height: 10, loop: .forever)
        for (frame, delay) in zip(frames, [-1, Int.min, 70_000]) { try writer.write(frame, delay: delay) }
        try writer.close()
        #expect(try DecodedGIF([UInt8](sink.data)).delays == [0, 0, 65535])
    }

    @Test func loopModes() {
        #expect(LoopMode("forever")?.netscapeCount == 0)
        #expect(LoopMode("once")?.netscapeCount == nil)
        #expect(LoopMode("1")?.netscapeCount == nil)
        #expect(LoopMode("5")?.netscapeCount == 4)
        #expect(LoopMode("0") == nil)
        #expect(LoopMode("65537") == nil)
        #expect(LoopMode("sometimes") == nil)
        // Words in any case, as the command line and `Easing` take them.
        #expect(LoopMode("Forever") == .forever && LoopMode("ONCE") == .once)
        #expect(ClonePolicy("Auto") == .auto && ClonePolicy("SET") == .set && ClonePolicy("3") == .count(3))
    }

    /// A failing sink surfaces as one error naming the output, and the writer still releases giflib's handle.
    @Test func reportsWriteFailure() throws {
        final class FullDisk: ByteSink {
            var budget = 40
            func write(_ bytes: UnsafeRawBufferPointer) throws(CarouselError) {
                budget -= bytes.count
                if budget < 0 { throw .output("full.gif", "No space left on device") }
            }
        }
        #expect(throws: CarouselError.output("full.gif", "No space left on device")) {
            let writer = try GIFWriter(sink: FullDisk(), name: "full.gif", width: 24, height: 10, loop: .forever)
            for frame in Self.frames(count: 3) { try writer.write(frame, delay: 4) }
            try writer.close()
        }
    }

    /// Loop counts outside 1...65536 plays cannot be made, so the writer never sees one.
    @Test func playCountsOutOfRangeCannotBeMade() {
        #expect(LoopMode.plays(0) == nil)
        #expect(LoopMode.plays(-1) == nil)
        #expect(LoopMode.plays(65537) == nil)
        #expect(LoopMode.plays(65536)?.netscapeCount == 65535)
        #expect(LoopMode("0") == nil)
    }

    /// A frame placed past the canvas is an output error, not a broken file (a place of 2^40
    /// trapped converting to 32 bits, 70000 wrote a descriptor giflib cannot hold).
    @Test(arguments: [(1 << 40, 0), (70_000, 0), (-1, 0), (0, 9), (21, 0)])
    func gifFrameOutsideTheCanvasIsRefused(_ left: Int, _ top: Int) throws {
        let writer = try GIFWriter(sink: MemorySink(), name: "t.gif", width: 24, height: 10, loop: .forever)
        let frame = Self.frames(count: 1, width: 4, height: 2)[0]
        #expect(throws: CarouselError.output("t.gif", "a 4x2 frame at (\(left), \(top)) lies outside the 24x10 canvas")) {
            try writer.write(frame, left: left, top: top, delay: 4)
        }
        try writer.write(frame, left: 20, top: 8, delay: 4)
    }
}
