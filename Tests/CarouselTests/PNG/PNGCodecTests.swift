import Carousel
import CarouselTestSupport
import Foundation
import Testing

struct PNGCodecTests {
    @Test(arguments: PNGFixture.all)
    func decodesGeneratedFixture(_ fixture: PNGFixture) throws {
        let image = try PNGCodec.decode(fixture.data, name: "fixture.png")
        #expect(image.width == fixture.width && image.height == fixture.height)
        let expected = fixture.expected
        #expect(differingPixels(image, expected) == 0, "\(fixture): max difference \(maximumChannelDifference(image, expected))")
    }

    @Test func coversEveryColorTypeDepthAndInterlace() {
        let all = PNGFixture.all
        for (type, depth) in PNGFixture.combinations {
            #expect(all.contains { $0.colorType == type && $0.bitDepth == depth && $0.interlaced })
            #expect(all.contains { $0.colorType == type && $0.bitDepth == depth && !$0.interlaced })
        }
    }

    @Test func roundTripsThroughEncode() throws {
        var image = RGBAImage(width: 37, height: 19)
        for y in 0..<19 {
            for x in 0..<37 {
                image[x, y] = RGBA(r: UInt8(x * 7), g: UInt8(y * 13), b: UInt8((x * y) % 256), a: UInt8((x + y) * 6 % 256))
            }
        }
        let data = try PNGCodec.encode(image)
        #expect(differingPixels(try PNGCodec.decode(data), image) == 0)
    }

    /// A header claiming 60000x60000 fails from the header alone: the file has no pixel data to speak of.
    @Test func refusesHugeImageFromHeader() throws {
        let file = PNGBytes.headerOnly(width: 60000, height: 60000)
        #expect(throws: PNGError.tooLarge(file: "huge.png", width: 60000, height: 60000, limit: PNGCodec.maximumPixels)) {
            try PNGCodec.decode(file, name: "huge.png")
        }
    }

    @Test func namesMissingFile() {
        #expect(throws: PNGError.unreadable(file: "/nonexistent/poster.png", reason: "no such file")) {
            try PNGCodec.decode(contentsOf: URL(fileURLWithPath: "/nonexistent/poster.png"))
        }
    }

    @Test func rejectsTruncatedFile() throws {
        let data = PNGFixture(colorType: .rgb, bitDepth: 8, interlaced: false, width: 13, height: 11, transparency: false).data
        let truncated = data.prefix(data.count - 40)
        #expect(throws: PNGError.self) { try PNGCodec.decode(truncated, name: "cut.png") }
        #expect(throws: PNGError.invalid(file: "text.png", reason: "Not a PNG file")) {
            try PNGCodec.decode(Data("hello, world".utf8), name: "text.png")
        }
    }

    /// Interlaced 16-bit files take their own path; damage there is still reported, never decoded.
    @Test func damagedInterlaced16BitFiles() throws {
        let data = PNGFixture(colorType: .rgba, bitDepth: 16, interlaced: true, width: 13, height: 11, transparency: false).data
        var corrupt = data
        corrupt[corrupt.count - 20] ^= 0x55   // inside IDAT: its CRC no longer matches
        #expect(throws: PNGError.invalid(file: "bad.png", reason: "IDAT: CRC error")) {
            try PNGCodec.decode(corrupt, name: "bad.png")
        }
        #expect(throws: PNGError.self) { try PNGCodec.decode(data.prefix(data.count - 30), name: "cut.png") }
    }
}
