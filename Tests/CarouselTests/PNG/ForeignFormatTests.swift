@testable import Carousel
import Foundation
import Testing

/// Files of other formats given as images: told apart by their first bytes, and refused with
/// what they are and what to do.
struct ForeignFormatTests {
    struct Sample: CustomTestStringConvertible, Sendable {
        let bytes: [UInt8]
        /// The name the format is given, or nil for bytes that are no common format.
        let name: String?
        var testDescription: String { name ?? String(decoding: bytes.prefix(12), as: UTF8.self).debugDescription }
    }

    static func text(_ string: String) -> [UInt8] { Array(string.utf8) }

    static let samples: [Sample] = [
        Sample(bytes: [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + text("JFIF"), name: "a JPEG image"),
        Sample(bytes: [0xFF, 0xD8, 0xFF, 0xE1] + text("..Exif"), name: "a JPEG image"),
        Sample(bytes: text("GIF89a\u{1}\u{0}"), name: "a GIF image"),
        Sample(bytes: text("GIF87a"), name: "a GIF image"),
        Sample(bytes: text("RIFF") + [0x24, 0, 0, 0] + text("WEBPVP8 "), name: "a WebP image"),
        Sample(bytes: text("RIFF") + [0x24, 0, 0, 0] + text("WAVEfmt "), name: nil),
        Sample(bytes: [0, 0, 0, 0x18] + text("ftypheic") + [0, 0, 0, 0] + text("mif1heic"), name: "a HEIF image"),
        Sample(bytes: [0, 0, 0, 0x18] + text("ftypmif1"), name: "a HEIF image"),
        Sample(bytes: [0, 0, 0, 0x1C] + text("ftypavif"), name: "an AVIF image"),
        Sample(bytes: [0, 0, 0, 0x14] + text("ftypqt  "), name: "a video"),
        Sample(bytes: [0, 0, 0, 0x20] + text("ftypisom"), name: "a video"),
        Sample(bytes: [0, 0, 0, 0x1C] + text("ftypcrx "), name: nil),
        Sample(bytes: [0, 0, 0, 0x14] + text("ftyp"), name: nil),
        Sample(bytes: [0xFF, 0x0A, 0xFA], name: "a JPEG XL image"),
        Sample(bytes: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A], name: "a JPEG XL image"),
        Sample(bytes: text("II*\u{0}\u{8}\u{0}"), name: "a TIFF image"),
        Sample(bytes: text("MM\u{0}*"), name: "a TIFF image"),
        Sample(bytes: text("BM") + [0x36, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 40, 0, 0, 0], name: "a BMP image"),
        Sample(bytes: text("BMW, a car, and words after it"), name: nil),
        Sample(bytes: text("8BPS\u{0}\u{1}"), name: "a Photoshop document"),
        Sample(bytes: text("%PDF-1.7\n"), name: "a PDF document"),
        Sample(bytes: text("<svg xmlns=\"http://www.w3.org/2000/svg\"/>"), name: "an SVG drawing"),
        Sample(bytes: [0xEF, 0xBB, 0xBF] + text("\n  <?xml version=\"1.0\"?>\n<!-- made by hand -->\n<svg/>"), name: "an SVG drawing"),
        Sample(bytes: text("<html><body>no drawing</body></html>"), name: nil),
        Sample(bytes: text("svg is a format; <svg> is its element"), name: nil),
        Sample(bytes: text("just text\n"), name: nil),
        Sample(bytes: [], name: nil),
        Sample(bytes: [0xFF, 0xD8], name: nil),
    ]

    /// The bytes of the first sample of the format `name`.
    static func bytes(of name: String) -> Data {
        Data(samples.first { $0.name == name }!.bytes)
    }

    @Test(arguments: samples)
    func formatsAreToldByTheirFirstBytes(_ sample: Sample) {
        #expect(ForeignFormat(Data(sample.bytes))?.name == sample.name)
    }

    /// An SVG element further in than the bytes looked at is not looked for.
    @Test func onlyTheFirstBytesAreLookedAt() {
        let padding = String(repeating: " ", count: ForeignFormat.sniffedBytes)
        #expect(ForeignFormat(Data(("<?xml version=\"1.0\"?>" + padding + "<svg/>").utf8)) == nil)
        #expect(ForeignFormat(Data(("<?xml version=\"1.0\"?><svg/>" + padding).utf8))?.name == "an SVG drawing")
    }

    /// The error names the format, and for a picture macOS converts, the command for this file.
    @Test func decodingOneSaysWhatItIsAndWhatToDo() {
        let jpeg = Self.bytes(of: "a JPEG image")
        let cases: [(name: String, data: Data, reason: String)] = [
            ("photos/beach.jpg", jpeg, "Not a PNG file but a JPEG image; convert it to PNG first (on macOS: sips -s format png photos/beach.jpg --out photos/beach.png)"),
            ("IMG 0042.HEIC", Self.bytes(of: "a HEIF image"), "Not a PNG file but a HEIF image; convert it to PNG first (on macOS: sips -s format png 'IMG 0042.HEIC' --out 'IMG 0042.png')"),
            ("it's.v1/shot", jpeg, "Not a PNG file but a JPEG image; convert it to PNG first (on macOS: sips -s format png 'it'\\''s.v1/shot' --out 'it'\\''s.v1/shot.png')"),
            ("<memory>", jpeg, "Not a PNG file but a JPEG image; convert it to PNG first"),
            ("/dev/fd/63", jpeg, "Not a PNG file but a JPEG image; convert it to PNG first"),
            ("logo.svg", Self.bytes(of: "an SVG drawing"), "Not a PNG file but an SVG drawing; export it as PNG at the item's size first"),
            ("demo.mov", Self.bytes(of: "a video"), "Not a PNG file but a video; give its frames as PNG images"),
            ("art.psd", Self.bytes(of: "a Photoshop document"), "Not a PNG file but a Photoshop document; export it as PNG first"),
            ("notes.png", Data("just text\n".utf8), "Not a PNG file"),
        ]
        for (name, data, reason) in cases {
            #expect(throws: PNGError.invalid(file: name, reason: reason)) { try PNGCodec.decode(data, name: name) }
            #expect(throws: PNGError.invalid(file: name, reason: reason)) { try PNGCodec.size(of: data, name: name) }
        }
    }

    @Test func namesAreQuotedForAShell() {
        let cases: [(String, String)] = [
            ("a.jpg", "a.jpg"), ("photos/2024-06/IMG_0042.HEIC", "photos/2024-06/IMG_0042.HEIC"),
            ("café.jpg", "café.jpg"), ("a b.jpg", "'a b.jpg'"), ("$HOME.jpg", "'$HOME.jpg'"),
            ("it's.jpg", "'it'\\''s.jpg'"), ("*.jpg", "'*.jpg'"), ("", "''"), ("'", "''\\'''"),
        ]
        for (name, quoted) in cases {
            #expect(ForeignFormat.quoted(name) == quoted, "\(name)")
        }
    }
}
