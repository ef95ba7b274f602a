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
        Sample(bytes: text("<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x.dtd\" [\n  <!ENTITY ns \"a>b\">\n]>\n<svg>"), name: "an SVG drawing"),
        Sample(bytes: text("<svg\nwidth=\"10\"/>"), name: "an SVG drawing"),
        Sample(bytes: text("<html><body>no drawing</body></html>"), name: nil),
        Sample(bytes: text("<!DOCTYPE html>\n<html><body><svg width=\"10\"></svg></body></html>"), name: nil),
        Sample(bytes: text("<?xml version=\"1.0\"?><config><svgPath>a</svgPath></config>"), name: nil),
        Sample(bytes: text("<svgx/>"), name: nil),
        Sample(bytes: text("<?xml version=\"1.0\"?><!-- unclosed <svg/>"), name: nil),
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

    /// The error names the format, and for a picture macOS converts, the command for this file
    /// where it is a regular file that a command can name.
    @Test func decodingOneSaysWhatItIsAndWhatToDo() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("carousel-foreign-\(UUID().uuidString)", isDirectory: true).path
        let photos = folder + "/photos/"
        try FileManager.default.createDirectory(atPath: photos + "it's.v1", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: photos + "a.d", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let jpeg = Self.bytes(of: "a JPEG image")
        let long = String(repeating: "x", count: 255), longest = String(repeating: "x", count: 251)
        for name in ["beach.jpg", "IMG 0042.HEIC", "it's.v1/shot", "wrong.PNG", "tab\there.jpg", long, longest + ".jpg",
                     "a.d/\u{301}x", "taken.jpg", "taken.png", "dangling.jpg", "a\u{E027};x\u{E027}.jpg"] {
            try jpeg.write(to: URL(fileURLWithPath: photos + name))
        }
        try #require(mkfifo(photos + "pipe.jpg", 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: photos + "linked.jpg", withDestinationPath: "beach.jpg")
        try FileManager.default.createSymbolicLink(atPath: photos + "dangling.png", withDestinationPath: "nowhere.png")
        let convert = "Not a PNG file but a JPEG image; convert it to PNG first"
        let cases: [(name: String, data: Data, reason: String)] = [
            (photos + "beach.jpg", jpeg, convert + " (on macOS: sips -s format png \(photos)beach.jpg --out \(photos)beach.png)"),
            (photos + "IMG 0042.HEIC", Self.bytes(of: "a HEIF image"),
             "Not a PNG file but a HEIF image; convert it to PNG first (on macOS: sips -s format png '\(photos)IMG 0042.HEIC' --out '\(photos)IMG 0042.png')"),
            (photos + "it's.v1/shot", jpeg, convert + #" (on macOS: sips -s format png '\#(photos)it'\''s.v1/shot' --out '\#(photos)it'\''s.v1/shot.png')"#),
            // Misnamed: converted in place.
            (photos + "wrong.PNG", jpeg, convert + " (on macOS: sips -s format png \(photos)wrong.PNG --out \(photos)wrong.PNG)"),
            (photos + longest + ".jpg", jpeg, convert + " (on macOS: sips -s format png \(photos + longest).jpg --out \(photos + longest).png)"),
            // A mark joined to the `/` before it: the folder is still cut there.
            (photos + "a.d/\u{301}x", jpeg, convert + " (on macOS: sips -s format png '\(photos)a.d/\u{301}x' --out '\(photos)a.d/\u{301}x.png')"),
            // No command: a PNG's name over 255 bytes or taken, a control character, a link, a
            // `..`, a FIFO, no file, no path.
            (photos + long, jpeg, convert),
            (photos + "taken.jpg", jpeg, convert),
            (photos + "dangling.jpg", jpeg, convert),
            // zsh's line editor reads U+E027 as a quote.
            (photos + "a\u{E027};x\u{E027}.jpg", jpeg, convert),
            (photos + "linked.jpg", jpeg, convert),
            (photos + "it's.v1/../beach.jpg", jpeg, convert),
            (photos + "tab\there.jpg", jpeg, convert),
            (photos + "pipe.jpg", jpeg, convert),
            (photos + "gone.jpg", jpeg, convert),
            ("<memory>", jpeg, convert),
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

    /// A regular file reached through `/proc` (as `/dev/stdin` of a file is) is named by a path
    /// that leads elsewhere: no command for it.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/exe"), "needs Linux's /proc"))
    func filesThroughProcGetNoCommand() throws {
        #expect(ForeignFormat.conversion(of: "/proc/self/exe") == nil)
        #expect(ForeignFormat.conversion(of: "/proc/self/../self/exe") == nil)
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("carousel-proc-\(UUID().uuidString)", isDirectory: true).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data([0xFF, 0xD8, 0xFF]).write(to: URL(fileURLWithPath: folder + "/x.jpg"))
        #expect(ForeignFormat.conversion(of: folder + "/x.jpg") == "sips -s format png \(folder)/x.jpg --out \(folder)/x.png")
        // The same file through `/proc/self/root`, whose folder resolves outside `/proc`.
        #expect(ForeignFormat.conversion(of: "/proc/self/root" + folder + "/x.jpg") == nil)
        #expect(ForeignFormat.conversion(of: "//proc/./self/root" + folder + "/x.jpg") == nil)
    }

    @Test func namesAreQuotedForAShell() {
        let cases: [(String, String)] = [
            ("a.jpg", "a.jpg"), ("photos/2024-06/IMG_0042.HEIC", "photos/2024-06/IMG_0042.HEIC"),
            ("café.jpg", "'café.jpg'"), ("\u{E027}.jpg", "'\u{E027}.jpg'"), ("a b.jpg", "'a b.jpg'"), ("$HOME.jpg", "'$HOME.jpg'"),
            ("it's.jpg", #"'it'\''s.jpg'"#), ("*.jpg", "'*.jpg'"), ("", "''"), ("'", #"''\'''"#),
            ("-x.jpg", "./-x.jpg"), ("-", "./-"), ("=x.jpg", "'=x.jpg'"), ("~root/x.jpg", "'~root/x.jpg'"),
            ("%x.jpg", "'%x.jpg'"), ("a=b.jpg", "a=b.jpg"), (".hidden.jpg", ".hidden.jpg"), ("_x.jpg", "_x.jpg"),
            // A quote or dash with a combining mark after it, one character with it, is still one.
            ("x'\u{301};touch PWNED;'\u{301}.jpg", #"'x'\''"# + "\u{301};touch PWNED;" + #"'\''"# + "\u{301}.jpg'"),
            ("-\u{301}x.jpg", "'./-\u{301}x.jpg'"), ("\u{D4E}'x.jpg", #"'\#u{D4E}'\''x.jpg'"#),
        ]
        for (name, quoted) in cases {
            #expect(ForeignFormat.quoted(name) == quoted, "\(name)")
        }
    }
}
