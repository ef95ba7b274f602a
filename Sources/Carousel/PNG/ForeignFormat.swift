#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A common file format that is not PNG, told from a file's first bytes, so that a JPEG, a
/// HEIC photo or a screen recording given as an image is refused with what it is and what
/// to do, rather than with "Not a PNG file" alone.
struct ForeignFormat: Equatable {
    /// What the file is, with its article: "a JPEG image".
    let name: String
    /// What to do about it.
    let remedy: Remedy

    /// What to do about a file of a foreign format.
    enum Remedy: Equatable {
        /// Convert it: macOS's `sips` reads it.
        case convert
        /// Export it as PNG from the application that made it; `how` ends the advice.
        case export(how: String)
        /// Give its frames instead.
        case frames
    }

    /// How many of a file's first bytes `init?(_:)` looks at.
    static let sniffedBytes = 1024

    /// What to do about `file`, for the error's second half: for a format macOS converts, the
    /// command that converts this file, where `file` is a path of the user's.
    func advice(for file: String) -> String {
        switch remedy {
        case .convert:
            guard !file.hasPrefix("<"), !file.hasPrefix("/dev/"), !file.hasPrefix("/proc/") else { return "convert it to PNG first" }
            let stem = file.lastIndex(of: ".").flatMap { dot in
                file[dot...].contains("/") ? nil : file[..<dot]
            } ?? Substring(file)
            return "convert it to PNG first (on macOS: sips -s format png \(Self.quoted(file)) --out \(Self.quoted(stem + ".png")))"
        case let .export(how):
            return "export it as PNG \(how)"
        case .frames:
            return "give its frames as PNG images"
        }
    }

    /// `text` as one word for a shell: as it is when nothing in it is special, else in single quotes.
    static func quoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { c in
            c.properties.isAlphabetic || c.properties.numericType != nil || "._-+/,:@%=".unicodeScalars.contains(c)
        }
        return plain && !text.isEmpty ? text : "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// The format `data` starts as, when it is one of the common ones and not PNG.
    init?(_ data: Data) {
        let head = [UInt8](data.prefix(Self.sniffedBytes))
        func at(_ offset: Int, _ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        func starts(_ bytes: [UInt8]) -> Bool { head.starts(with: bytes) }
        if starts([0xFF, 0xD8, 0xFF]) {
            self.init(name: "a JPEG image", remedy: .convert)
        } else if at(0, "GIF87a") || at(0, "GIF89a") {
            self.init(name: "a GIF image", remedy: .convert)
        } else if at(0, "RIFF") && at(8, "WEBP") {
            self.init(name: "a WebP image", remedy: .convert)
        } else if at(4, "ftyp"), let brand = Self.isoBrand(head) {
            self = brand
        } else if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
            self.init(name: "a JPEG XL image", remedy: .convert)
        } else if at(0, "II*\u{0}") || at(0, "MM\u{0}*") {
            self.init(name: "a TIFF image", remedy: .convert)
        } else if at(0, "BM"), head.count >= 18, [12, 40, 52, 56, 64, 108, 124].contains(Int(head[14]) | Int(head[15]) << 8), head[16] == 0, head[17] == 0 {
            self.init(name: "a BMP image", remedy: .convert)
        } else if at(0, "8BPS") {
            self.init(name: "a Photoshop document", remedy: .export(how: "first"))
        } else if at(0, "%PDF-") {
            self.init(name: "a PDF document", remedy: .convert)
        } else if Self.isSVG(head) {
            self.init(name: "an SVG drawing", remedy: .export(how: "at the item's size first"))
        } else {
            return nil
        }
    }

    private init(name: String, remedy: Remedy) {
        self.name = name
        self.remedy = remedy
    }

    /// An ISO media file (`ftyp` box) by its major brand: a HEIF or AVIF image, or a video.
    private static func isoBrand(_ head: [UInt8]) -> ForeignFormat? {
        guard head.count >= 12 else { return nil }
        let brand = String(decoding: head[8..<12], as: UTF8.self)
        switch brand {
        case "heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1":
            return ForeignFormat(name: "a HEIF image", remedy: .convert)
        case "avif", "avis":
            return ForeignFormat(name: "an AVIF image", remedy: .convert)
        case "isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "qt  ", "M4V ", "M4VP", "3gp4", "3gp5", "3gp6", "3g2a":
            return ForeignFormat(name: "a video", remedy: .frames)
        default:
            return nil
        }
    }

    /// Text that opens an SVG element: `<svg`, after an optional byte-order mark, white space,
    /// an XML declaration, comments or a doctype.
    private static func isSVG(_ head: [UInt8]) -> Bool {
        var text = Substring(String(decoding: head, as: UTF8.self))
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        guard text.drop(while: { $0.isWhitespace }).hasPrefix("<") else { return false }
        return text.contains("<svg")
    }
}
