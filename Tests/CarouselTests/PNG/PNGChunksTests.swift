@testable import Carousel
import CarouselTestSupport
import Foundation
import Testing

/// The one walker of PNG chunk framing (``PNGChunks``) and the readers built on it.
struct PNGChunksTests {
    static let file = PNGBytes.file([("IHDR", Data(repeating: 1, count: 13)), ("tEXt", Data("a\0b".utf8)),
                                     ("IDAT", Data([9, 8, 7])), ("IEND", Data()), ("tEXt", Data("after".utf8))])

    /// Each chunk's type and body in order, up to IEND; what comes after IEND is not read.
    @Test func walksEveryChunkUpToIEND() {
        let bytes = [UInt8](Self.file)
        var seen: [(String, [UInt8])] = []
        #expect(PNGChunks.forEach(in: bytes) { seen.append(($0, Array(bytes[$1]))) })
        #expect(seen.map(\.0) == ["IHDR", "tEXt", "IDAT", "IEND"])
        #expect(seen[1].1 == Array("a\0b".utf8))
        #expect(seen[2].1 == [9, 8, 7])
        #expect(seen[3].1.isEmpty)
    }

    /// A chunk whose length runs past the end stops the walk after the chunks before it and
    /// says so; a tail shorter than a chunk is no chunk, and not a fault.
    @Test func truncatedChunkStopsTheWalk() {
        let bytes = [UInt8](Self.file)
        // Cut inside IDAT (15 bytes from byte 48), 13 bytes in: IHDR (8 + 25 bytes) and tEXt
        // (12 + 3) stay whole.
        let cut = Array(bytes.prefix(8 + 25 + 15 + 13))
        var seen: [String] = []
        #expect(!PNGChunks.forEach(in: cut) { type, _ in seen.append(type) })
        #expect(seen == ["IHDR", "tEXt"])
        // A length of 2^32 - 1 in the first chunk: nothing is read.
        var huge = bytes
        huge.replaceSubrange(8..<12, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(!PNGChunks.forEach(in: huge) { _, _ in Issue.record("no chunk fits") })
        seen = []
        #expect(PNGChunks.forEach(in: Array(bytes.prefix(8 + 25 + 11))) { type, _ in seen.append(type) })
        #expect(seen == ["IHDR"])
        #expect(PNGChunks.forEach(in: [UInt8]()) { _, _ in Issue.record("no chunk in nothing") })
    }

    /// A slice is walked where it lies, its indices not starting at 0.
    @Test func walksASliceInPlace() {
        let padded = [UInt8](repeating: 0, count: 5) + [UInt8](Self.file)
        var types: [String] = [], data: [UInt8] = []
        #expect(PNGChunks.forEach(in: padded[5...]) { type, range in
            types.append(type)
            if type == "IDAT" { data = Array(padded[range]) }
        })
        #expect(types == ["IHDR", "tEXt", "IDAT", "IEND"])
        #expect(data == [9, 8, 7])
    }

    /// The snapshot strategies' APNG reader: carousel's APNG decodes to the frames the suite's
    /// own reader sees, with the same delays; a file cut inside a chunk and a still PNG are
    /// errors that name the file.
    @Test func apngDecoderReadsCarouselsAPNG() throws {
        let data = try FormatTests.carousel().data(format: .apng)
        let decoded = try APNGDecoder(data, name: "a.apng")
        let reference = try DecodedAPNG(data)
        #expect(decoded.frames.count == reference.frames.count && decoded.frames.count > 2)
        #expect(zip(decoded.frames, reference.frames).allSatisfy { differingPixels($0, $1) == 0 })
        #expect(decoded.delays.map { [$0.numerator, $0.denominator] } == reference.delays.map { [$0.0, $0.1] })
        // Cut 12 bytes into the first frame's image data (its IDAT chunk's body).
        let idat = try #require([UInt8](data).firstRange(of: Array("IDAT".utf8))).lowerBound
        #expect(throws: PNGError.invalid(file: "cut.apng", reason: "truncated file")) {
            try APNGDecoder(data.prefix(idat + 16), name: "cut.apng")
        }
        let still = try PNGCodec.encode(RGBAImage(width: 2, height: 2), name: "still.png")
        #expect(throws: PNGError.invalid(file: "still.png", reason: "not an animated PNG (no acTL and fcTL)")) {
            try APNGDecoder(still, name: "still.png")
        }
    }

    /// Frames are kept as whole canvases, so a small file naming many frames of a large canvas
    /// is refused before any is decoded: here 5 frames of 8192x8192 in 250 bytes.
    @Test func apngDecoderRefusesFramesOverTheLimit() throws {
        func u32(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(v >> $0 & 0xFF) } }
        var file = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        file += APNGEncoder.chunk("IHDR", Data(u32(8192) + u32(8192) + [8, 6, 0, 0, 0]))
        file += APNGEncoder.chunk("acTL", Data(u32(5) + u32(0)))
        for k in 0..<5 {
            file += APNGEncoder.chunk("fcTL", Data(u32(2 * k) + u32(1) + u32(1) + u32(0) + u32(0) + [0, 1, 0, 25, 0, 0]))
            file += APNGEncoder.chunk(k == 0 ? "IDAT" : "fdAT", Data((k == 0 ? [] : u32(2 * k + 1)) + [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]))
        }
        file += APNGEncoder.chunk("IEND", Data())
        #expect(5 * 8192 * 8192 > APNGDecoder.maximumPixels && 4 * 8192 * 8192 <= APNGDecoder.maximumPixels)
        #expect(throws: PNGError.invalid(file: "many.apng", reason: "5 frames of 8192x8192 are over the limit of 268435456 pixels in all")) {
            try APNGDecoder(file, name: "many.apng")
        }
        #expect(throws: PNGError.invalid(file: "many.apng", reason: "a canvas of 8192x8192 is over the limit of 1048576 pixels")) {
            try APNGDecoder(file, name: "many.apng", maximumPixels: 1 << 20)
        }
        // A canvas whose pixels overflow `Int` (2^32 - 1 each way) wrapped below the limit.
        var huge = file
        huge.replaceSubrange(8..<33, with: APNGEncoder.chunk("IHDR", Data(u32(0xFFFF_FFFF) + u32(0xFFFF_FFFF) + [8, 6, 0, 0, 0])))
        #expect(throws: PNGError.invalid(file: "huge.apng", reason: "a canvas of 4294967295x4294967295 is more than a picture may hold (67108864 pixels)")) {
            try APNGDecoder(huge, name: "huge.apng")
        }
        // A larger budget lifts the budget's refusals, not a picture's own cap: only the first
        // two count as past the limit given.
        for (data, budget, lifted) in [(file, 1 << 20, true), (file, APNGDecoder.maximumPixels, true), (huge, 1 << 40, false)] {
            do {
                _ = try APNGDecoder(data, maximumPixels: budget)
                Issue.record("decoded under \(budget)")
            } catch {
                #expect(APNGDecoder.isPastLimit(error.reason) == lifted, "\(error.reason)")
            }
        }
    }
}
