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
        corrupt[corrupt.count - 20] ^= 0x55   // inside IDAT: the data and its CRC no longer match
        #expect(throws: PNGError.self) { try PNGCodec.decode(corrupt, name: "bad.png") }
        #expect(throws: PNGError.self) { try PNGCodec.decode(data.prefix(data.count - 30), name: "cut.png") }
    }

    /// A file's chunks, and the file rebuilt from (possibly changed) chunks.
    static func chunks(_ data: Data) -> [(type: String, body: Data)] {
        var out: [(String, Data)] = []
        var at = 8
        let bytes = [UInt8](data)
        while at + 12 <= bytes.count {
            let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            out.append((String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self), Data(bytes[(at + 8)..<(at + 8 + length)])))
            at += 12 + length
        }
        return out
    }

    /// Chunk-level defects, applied alike to a file and its twin.
    enum Defect: String, CaseIterable, Sendable {
        case textBetweenData, headerBetweenData, ancillaryBadCRC, gammaBadCRC, trailingData, dataBadCRC, missingEnd, none

        func apply(_ data: Data) -> Data {
            var chunks = PNGCodecTests.chunks(data)
            let idat = chunks.firstIndex { $0.type == "IDAT" }!
            // Split the image data in two chunks, so something can stand between them.
            let body = chunks[idat].body
            let half = body.count / 2
            chunks[idat] = ("IDAT", body.prefix(half))
            chunks.insert(("IDAT", body.suffix(from: body.startIndex + half)), at: idat + 1)
            var file = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            for (k, chunk) in chunks.enumerated() {
                var bytes = PNGBytes.chunk(chunk.type, chunk.body)
                switch self {
                case .textBetweenData where k == idat + 1:
                    file += PNGBytes.chunk("tEXt", Data("Comment\u{0}between".utf8))
                case .headerBetweenData where k == idat + 1:
                    file += PNGBytes.chunk("IHDR", chunks[0].body)
                case .ancillaryBadCRC where k == idat:
                    var text = PNGBytes.chunk("tEXt", Data("Title\u{0}x".utf8))
                    text[text.count - 1] ^= 0xFF
                    file += text
                case .gammaBadCRC where k == idat:
                    var gamma = PNGBytes.chunk("gAMA", PNGBytes.be32(100_000))
                    gamma[gamma.count - 1] ^= 0xFF
                    file += gamma
                case .dataBadCRC where k == idat:
                    bytes[bytes.count - 1] ^= 0xFF
                case .missingEnd where chunk.type == "IEND":
                    continue
                default:
                    break
                }
                file += bytes
            }
            if self == .trailingData { file += Data("trailing bytes".utf8) }
            return file
        }
    }

    /// The interlaced 16-bit path gives the verdict libpng gives the non-interlaced twin,
    /// for every chunk-level defect: the same error, or the same pixels.
    @Test(arguments: Defect.allCases)
    func interlacedVerdictMatchesTwin(_ defect: Defect) throws {
        func verdict(_ interlaced: Bool) -> Result<RGBAImage, PNGError> {
            let data = PNGFixture(colorType: .rgba, bitDepth: 16, interlaced: interlaced, width: 13, height: 11, transparency: false).data
            return Result { () throws(PNGError) in try PNGCodec.decode(defect.apply(data), name: "f.png") }
        }
        switch (verdict(true), verdict(false)) {
        case let (.success(a), .success(b)):
            #expect(a == b, "\(defect): same pixels")
        case let (.failure(a), .failure(b)):
            #expect(a == b, "\(defect): same error")
        case let (a, b):
            Issue.record("\(defect): interlaced \(a) but the twin \(b)")
        }
    }
}
