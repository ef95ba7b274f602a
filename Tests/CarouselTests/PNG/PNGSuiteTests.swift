import Carousel
import CarouselTestSupport
import Foundation
import Testing

/// The whole PngSuite, read from ../shared/pngsuite; skipped with a message when that folder is absent.
@Suite(.enabled(if: TestPaths.hasPngSuite, "PngSuite not found at ../shared/pngsuite; skipping the PngSuite table (the generated fixtures still test decoding)"))
struct PNGSuiteTests {
    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: TestPaths.pngSuite.path)) ?? [])
            .filter { $0.hasSuffix(".png") }.sorted()
    }
    static var valid: [String] { files.filter { !$0.hasPrefix("x") } }
    static var invalid: [String] { files.filter { $0.hasPrefix("x") } }

    /// libpng 1.6's reason for each deliberately broken file.
    static let reasons: [String: String] = [
        "xc1n0g08.png": "Invalid IHDR data", "xc9n2c08.png": "Invalid IHDR data",
        "xcrn0g04.png": "PNG file corrupted by ASCII conversion", "xcsn0g01.png": "IDAT: CRC error",
        "xd0n2c08.png": "Invalid IHDR data", "xd3n2c08.png": "Invalid IHDR data", "xd9n2c08.png": "Invalid IHDR data",
        "xdtn0g01.png": "IEND: out of place", "xhdn0g08.png": "IHDR: CRC error",
        "xlfn0g04.png": "PNG file corrupted by ASCII conversion", "xs1n0g01.png": "Not a PNG file",
        "xs2n0g01.png": "Not a PNG file", "xs4n0g01.png": "Not a PNG file",
        "xs7n0g01.png": "PNG file corrupted by ASCII conversion",
    ]

    @Test func suiteIsComplete() {
        #expect(Self.valid.count == 162)
        #expect(Self.invalid.count == 14)
    }

    @Test(arguments: valid)
    func decodesValidFile(_ name: String) throws {
        let url = TestPaths.pngSuite.appendingPathComponent(name)
        let image = try PNGCodec.decode(contentsOf: url)
        let header = try Data(contentsOf: url)
        let width = header[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = header[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(image.width == width && image.height == height)
        #expect(image.pixels.count == width * height * 4)
    }

    /// Every valid file's pixels, written with the quick encoding of `carousel frames`, decode
    /// to the same pixels: every colour type and depth as it arrives in RGBA.
    @Test(arguments: valid)
    func quickEncodingRoundTrips(_ name: String) throws {
        let image = try PNGCodec.decode(contentsOf: TestPaths.pngSuite.appendingPathComponent(name))
        let again = try PNGCodec.decode(PNGCodec.encode(image, name: name, fast: true))
        #expect(differingPixels(again, image) == 0)
    }

    /// Every interlaced file decodes to the same pixels as its non-interlaced twin (`bgai*` have none).
    @Test(arguments: valid.filter { $0.count == 12 && Array($0)[3] == "i" && !$0.hasPrefix("bgai") })
    func interlacedMatchesTwin(_ name: String) throws {
        var twin = Array(name)
        twin[3] = "n"
        let twinName = String(twin)
        try #require(Self.files.contains(twinName), "no twin for \(name)")
        let a = try PNGCodec.decode(contentsOf: TestPaths.pngSuite.appendingPathComponent(name))
        let b = try PNGCodec.decode(contentsOf: TestPaths.pngSuite.appendingPathComponent(twinName))
        #expect(a.width == b.width && a.height == b.height)
        #expect(differingPixels(a, b) == 0, "\(name) and \(twinName) differ by up to \(maximumChannelDifference(a, b))")
    }

    @Test(arguments: invalid)
    func rejectsBrokenFile(_ name: String) throws {
        let url = TestPaths.pngSuite.appendingPathComponent(name)
        let expected = try #require(Self.reasons[name])
        #expect(throws: PNGError.invalid(file: url.path, reason: expected)) {
            try PNGCodec.decode(contentsOf: url)
        }
    }

    /// Spot checks of exact pixel values (a file without gAMA, so no colour conversion applies),
    /// read independently of libpng, and palette transparency from tRNS.
    @Test func knownPixels() throws {
        let rgb = try PNGCodec.decode(contentsOf: TestPaths.pngSuite.appendingPathComponent("f00n2c08.png"))
        #expect(rgb[0, 0] == RGBA(r: 255, g: 0, b: 8))
        #expect(rgb[31, 31] == RGBA(r: 0, g: 32, b: 255))
        #expect(rgb[20, 5] == RGBA(r: 255, g: 205, b: 127))
        let transparent = try PNGCodec.decode(contentsOf: TestPaths.pngSuite.appendingPathComponent("tbbn3p08.png"))
        #expect(transparent[0, 0].a == 0)
    }
}
