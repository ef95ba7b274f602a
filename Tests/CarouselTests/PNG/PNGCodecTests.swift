@testable import Carousel
import CarouselTestSupport
import CLibPNG
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

    /// The quick encoding (`fast`, as `carousel frames` writes) decodes to the pixels it was
    /// given, alpha included: one pixel, single rows and columns, widths whose rows are not a
    /// multiple of a vector, and more rows than a band of ``PNGWriter/bandRows``.
    @Test(arguments: [(1, 1), (1, 40), (40, 1), (2, 2), (5, 3), (37, 19), (301, 33)])
    func quickEncodingRoundTrips(_ size: (width: Int, height: Int)) throws {
        var random = SeededRandom(seed: UInt64(size.width * 1000 + size.height))
        var image = RGBAImage(width: size.width, height: size.height)
        for y in 0..<size.height {
            for x in 0..<size.width {
                // Smooth areas (where the Paeth predictor's three choices tie or nearly), and noise.
                image[x, y] = x % 7 < 4
                    ? RGBA(r: UInt8(x * 3 % 256), g: UInt8(y * 5 % 256), b: UInt8((x + y) % 256), a: x % 3 == 0 ? 255 : UInt8(x * y % 256))
                    : RGBA(r: random.byte(), g: random.byte(), b: random.byte(), a: random.byte())
            }
        }
        let data = try PNGCodec.encode(image, fast: true)
        #expect(differingPixels(try PNGCodec.decode(data), image) == 0)
    }

    /// The quick encoding's chunks: IHDR (8-bit RGBA, not interlaced), sRGB, the image data
    /// in IDAT chunks of at most ``PNGWriter/idatBytes`` (several for an image of noise), and
    /// IEND, each with its CRC (checked with the tests' own CRC-32, not zlib's).
    @Test func quickEncodingWritesWellFormedChunks() throws {
        var random = SeededRandom(seed: 7)
        var image = RGBAImage(width: 400, height: 300)
        for y in 0..<300 {
            for x in 0..<400 { image[x, y] = RGBA(r: random.byte(), g: random.byte(), b: random.byte(), a: random.byte()) }
        }
        let data = try PNGCodec.encode(image, fast: true)
        #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let chunks = Self.chunks(data)
        let types = chunks.map(\.type)
        #expect(types.first == "IHDR" && types.dropFirst().first == "sRGB" && types.last == "IEND")
        let idat = chunks.filter { $0.type == "IDAT" }
        #expect(idat.count >= 2 && idat.count == chunks.count - 3, "\(types)")
        #expect(idat.allSatisfy { $0.body.count <= PNGWriter.idatBytes })
        #expect(chunks[0].body == PNGBytes.be32(400) + PNGBytes.be32(300) + Data([8, 6, 0, 0, 0]))
        #expect(chunks[1].body == Data([0]))
        // Each chunk's stored CRC, over its type and body.
        var at = 8
        let bytes = [UInt8](data)
        for chunk in chunks {
            let end = at + 8 + chunk.body.count
            let stored = bytes[end..<(end + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(stored == PNGBytes.crc32(Data(bytes[(at + 4)..<end])), "\(chunk.type)")
            at = end + 4
        }
        #expect(at == bytes.count)
        #expect(differingPixels(try PNGCodec.decode(data), image) == 0)
    }

    /// An image wider or taller than libpng's writer takes is written the quick way, which has
    /// no such limit; at the limit libpng still writes it. Before, past it, libpng refused:
    /// `Invalid IHDR data`.
    @Test func imagesPastLibpngsLimitAreWritten() throws {
        let limit = PNGCodec.libpngSideLimit
        for (width, height) in [(limit + 1, 1), (1, limit + 1)] {
            var image = RGBAImage(width: width, height: height, fill: RGBA(r: 10, g: 200, b: 30))
            image[width - 1, height - 1] = RGBA(r: 250, g: 0, b: 0, a: 128)
            let data = try PNGCodec.encode(image, name: "wide.png")
            #expect(data == (try PNGCodec.encode(image, fast: true)))
            #expect(Self.chunks(data)[0].body == PNGBytes.be32(width) + PNGBytes.be32(height) + Data([8, 6, 0, 0, 0]))
        }
        let atLimit = try PNGCodec.encode(RGBAImage(width: limit, height: 1, fill: .white))
        #expect(atLimit != (try PNGCodec.encode(RGBAImage(width: limit, height: 1, fill: .white), fast: true)), "libpng's own")
    }

    /// An image without pixels cannot be a PNG: one line naming it, from the quick encoding as
    /// from libpng's.
    @Test(arguments: [true, false])
    func anEmptyImageIsRefused(_ fast: Bool) {
        for (width, height) in [(0, 0), (0, 3), (3, 0)] {
            let error = #expect(throws: PNGError.self) {
                try PNGCodec.encode(RGBAImage(width: width, height: height), name: "empty.png", fast: fast)
            }
            let line = error?.description ?? ""
            #expect(line.hasPrefix("empty.png: cannot encode PNG: ") && !line.contains("\n"), "\(line)")
        }
    }

    /// The deflater hands its output on in pieces of at most its size, none empty, and the
    /// pieces make the same stream whatever their size: sizes from one byte up, the stream's
    /// own length (so the last piece fills the buffer exactly) and a byte either side of it,
    /// input handed in one call or in several. The stream decodes, as the image data of a PNG.
    @Test func deflaterPiecesMakeOneStream() throws {
        var random = SeededRandom(seed: 11)
        // Rows of a 40x30 RGB image, filter type 0: half noise, half flat.
        let raw = (0..<30).flatMap { y in [UInt8(0)] + (0..<120).map { x in x < 60 ? random.byte() : UInt8(y) } }
        func stream(output: Int, calls: Int) throws -> (bytes: [UInt8], pieces: [Int]) {
            let deflater = try Deflater(level: 1, strategy: Z_RLE, output: output)
            var bytes: [UInt8] = [], pieces: [Int] = []
            let step = (raw.count + calls - 1) / calls
            for start in stride(from: 0, to: raw.count, by: step) {
                try deflater.add(Array(raw[start..<min(raw.count, start + step)])) {
                    bytes += $0
                    pieces.append($0.count)
                }
            }
            try deflater.finish {
                bytes += $0
                pieces.append($0.count)
            }
            return (bytes, pieces)
        }
        let whole = try stream(output: 1 << 16, calls: 1).bytes
        for output in [1, 2, 3, 7, 64, whole.count - 1, whole.count, whole.count + 1] {
            for calls in [1, 5] {
                let (bytes, pieces) = try stream(output: output, calls: calls)
                #expect(bytes == whole, "pieces of \(output), \(calls) calls")
                #expect(pieces.allSatisfy { $0 > 0 && $0 <= output }, "pieces of \(output): \(pieces.prefix(8))")
            }
        }
        var ihdr = PNGBytes.be32(40) + PNGBytes.be32(30)
        ihdr.append(contentsOf: [8, 2, 0, 0, 0])
        let png = PNGBytes.file([("IHDR", ihdr), ("IDAT", Data(whole)), ("IEND", Data())])
        let image = try PNGCodec.decode(png)
        var expected = RGBAImage(width: 40, height: 30)
        for y in 0..<30 {
            for x in 0..<40 {
                let at = y * 121 + 1 + x * 3
                expected[x, y] = RGBA(r: raw[at], g: raw[at + 1], b: raw[at + 2])
            }
        }
        #expect(differingPixels(image, expected) == 0)
    }

    /// A header claiming 60000x60000 fails from the header alone: the file has no pixel data to speak of.
    @Test func refusesHugeImageFromHeader() throws {
        let file = PNGBytes.headerOnly(width: 60000, height: 60000)
        #expect(throws: PNGError.tooLarge(file: "huge.png", width: 60000, height: 60000, limit: PNGCodec.maximumPixels)) {
            try PNGCodec.decode(file, name: "huge.png")
        }
    }

    /// A PNG wider or taller than libpng's reader takes (a million pixels a side), within the
    /// pixel cap, is refused saying so, and one past the cap too saying that: from the header,
    /// before libpng, whose own refusal was `Invalid IHDR data` for both. Such a file is what
    /// a long `carousel strip` writes.
    @Test func sidesPastLibpngsReadLimitSaySo() throws {
        let limit = PNGCodec.libpngSideLimit
        for (width, height) in [(limit + 1, 1), (1, limit + 1)] {
            let data = try PNGCodec.encode(RGBAImage(width: width, height: height, fill: .white), name: "wide.png")
            #expect(throws: PNGError.invalid(file: "wide.png", reason: "image is \(width)x\(height); PNG input is read up to 1000000 pixels a side")) {
                try PNGCodec.decode(data, name: "wide.png")
            }
        }
        // At the limit, it is read.
        let atLimit = try PNGCodec.encode(RGBAImage(width: limit, height: 1, fill: .white))
        #expect(try PNGCodec.decode(atLimit).width == limit)
        let side = Int(Int32.max)
        #expect(throws: PNGError.tooLarge(file: "huge.png", width: side, height: side, limit: PNGCodec.maximumPixels)) {
            try PNGCodec.decode(PNGBytes.headerOnly(width: side, height: side), name: "huge.png")
        }
    }

    @Test func namesMissingFile() {
        #expect(throws: PNGError.unreadable(file: "/nonexistent/poster.png", reason: "no such file or folder")) {
            try PNGCodec.decode(contentsOf: URL(fileURLWithPath: "/nonexistent/poster.png"))
        }
    }

    /// A URL relative to a file is read from the folder that file is in, as URLs resolve
    /// (`x.png` beside `manifest.json`), and one relative to a folder from that folder.
    @Test func readsAURLRelativeToAFileFromItsFolder() throws {
        let folder = TestPaths.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = RGBAImage(width: 3, height: 2, fill: RGBA(r: 200, g: 40, b: 10))
        try PNGCodec.encode(image).write(to: folder.appendingPathComponent("x.png"))
        try Data("{}".utf8).write(to: folder.appendingPathComponent("manifest.json"))
        let besideAFile = URL(fileURLWithPath: "x.png", relativeTo: folder.appendingPathComponent("manifest.json"))
        #expect(try PNGCodec.decode(contentsOf: besideAFile) == image)
        let inAFolder = URL(fileURLWithPath: "x.png", relativeTo: URL(fileURLWithPath: folder.path, isDirectory: true))
        #expect(try PNGCodec.decode(contentsOf: inAFolder) == image)
    }

    /// Every chunk's CRC is checked, the ancillary ones too (libpng alone drops a damaged
    /// gAMA or tRNS and decodes without it), and a file must reach IEND (spec 6: a corrupt
    /// or truncated PNG is an error naming the file).
    @Test(arguments: [
        ("gAMA", "gAMA: CRC error"), ("tRNS", "tRNS: CRC error"), ("tEXt", "tEXt: CRC error"),
        ("IEND", "IEND: CRC error"), ("type", "AEND: CRC error"), ("cut", "truncated file (no IEND chunk)"),
        ("end", "truncated file (no IEND chunk)"), ("IDAT", "IDAT: CRC error"),
        ("data", "truncated file (IDAT chunk cut short)"),
    ])
    func damagedChunksAreRefused(_ damage: String, _ reason: String) throws {
        let good = PNGFixture(colorType: .palette, bitDepth: 8, interlaced: false, width: 13, height: 11, transparency: true).data
        var chunks = PNGCodecTests.chunks(good)
        chunks.insert(("gAMA", PNGBytes.be32(100_000)), at: 1)
        let idat = try #require(chunks.firstIndex { $0.type == "IDAT" })
        chunks.insert(("tEXt", Data("Title\u{0}x".utf8)), at: idat)
        // The file from its chunks, the CRC of the chunk named `damage` off by a bit.
        var file = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        for chunk in chunks {
            var bytes = PNGBytes.chunk(chunk.type, chunk.body)
            if chunk.type == damage { bytes[bytes.count - 1] ^= 0x01 }
            file += bytes
        }
        let image = try PNGCodec.decode(PNGBytes.file(chunks), name: "f.png")
        switch damage {
        case "type": file[file.count - 8] = UInt8(ascii: "A")
        case "cut": file.removeLast(2)
        case "end": file.removeLast(12)
        case "data": file = file.prefix(file.count - 20)
        default: break
        }
        #expect(throws: PNGError.invalid(file: "f.png", reason: reason)) { try PNGCodec.decode(file, name: "f.png") }
        // Bytes after IEND are not read.
        #expect(try PNGCodec.decode(PNGBytes.file(chunks) + Data("trailing".utf8), name: "f.png") == image)
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
