#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
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
    /// command that converts this file, where `file` names a regular file of the user's
    /// (``conversion(of:)``).
    func advice(for file: String) -> String {
        switch remedy {
        case .convert:
            guard let command = Self.conversion(of: file) else { return "convert it to PNG first" }
            return "convert it to PNG first (on macOS: \(command))"
        case let .export(how):
            return "export it as PNG \(how)"
        case .frames:
            return "give its frames as PNG images"
        }
    }

    /// The `sips` command that converts the regular file `file` to a PNG beside it (in place,
    /// for a file already named `.png`), as a shell reads it. Nil where no such command is
    /// meant or can be written so that it names this file and no other:
    /// - a name that is no file's (`<memory>`), or not a regular file's: a pipe, and a
    ///   symbolic link, which may lead to `/dev/stdin`;
    /// - a file in `/dev` or `/proc`, however spelt (`/dev/stdin` of a file, `/proc/self/cwd`),
    ///   or named through `..`, which the shell takes after a linked folder where the path
    ///   was read before it;
    /// - a name holding a control or format character, which the one-line error shows escaped
    ///   or a terminal does not show, so that no word pasted from it names the file, or a
    ///   private-use or unassigned one, which a shell's line editor may take for something
    ///   else (zsh reads U+E000 to U+E0FF as single bytes, U+E027 as a quote);
    /// - a PNG name over 255 bytes, or one that is another file already (a dangling link too).
    ///
    /// Names are cut at their `/` and `.` bytes, not at characters: a combining mark after a
    /// `/` makes one character of the two.
    static func conversion(of file: String) -> String? {
        guard !file.unicodeScalars.contains(where: { c in
            switch c.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: return true
            default: return c == "\u{FFFD}"
            }
        }) else { return nil }
        var info = stat()
        guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let bytes = Array(file.utf8)
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        let parts = bytes.split(separator: slash, omittingEmptySubsequences: true)
        guard !parts.contains(where: { $0.elementsEqual([dot, dot]) }) else { return nil }
        let absolute = bytes.first == slash ? parts : Self.workingDirectory().split(separator: slash) + parts
        guard let top = absolute.first(where: { !$0.elementsEqual([dot]) }),
              !top.elementsEqual("dev".utf8), !top.elementsEqual("proc".utf8) else { return nil }
        let lastSlash = bytes.lastIndex(of: slash)
        let folder = lastSlash.map { $0 == 0 ? "/" : String(decoding: bytes[..<$0], as: UTF8.self) } ?? "."
        guard let real = realpath(folder, nil) else { return nil }
        let resolved = String(cString: real)
        free(real)
        guard !["/dev", "/proc"].contains(where: { resolved == $0 || resolved.hasPrefix($0 + "/") }) else { return nil }
        let baseStart = lastSlash.map { $0 + 1 } ?? 0
        let extensionDot = bytes[baseStart...].lastIndex(of: dot).flatMap { $0 == baseStart ? nil : $0 }
        let isPNG = extensionDot.map { String(decoding: bytes[($0 + 1)...], as: UTF8.self).lowercased() == "png" } ?? false
        let out = isPNG ? file : String(decoding: bytes[..<(extensionDot ?? bytes.count)], as: UTF8.self) + ".png"
        guard out.utf8.count - baseStart <= 255 else { return nil }
        if !isPNG, lstat(out, &info) == 0 || errno != ENOENT { return nil }
        return "sips -s format png \(quoted(file)) --out \(quoted(out))"
    }

    /// The working directory's path, or "" where it cannot be had.
    private static func workingDirectory() -> [UInt8] {
        guard let path = getcwd(nil, 0) else { return [] }
        defer { free(path) }
        return Array(String(cString: path).utf8)
    }

    /// `path` as one word for a shell (bash, zsh): as it is when it is ASCII letters, digits and
    /// punctuation no shell expands, else in single quotes (any other letter too, which zsh
    /// under a C locale would take for `?`); a relative path starting with `-` from `./`, not to
    /// be taken for an option. Read by Unicode scalars, not characters: a quote with a
    /// combining mark after it is one character, and must still be escaped.
    static func quoted(_ path: String) -> String {
        let path = path.unicodeScalars.first == "-" ? "./" + path : path
        let scalars = path.unicodeScalars
        func isWordly(_ c: Unicode.Scalar) -> Bool { c.isASCII && (c.properties.isAlphabetic || c.properties.numericType != nil) }
        let plain = scalars.first.map { isWordly($0) || "./_".unicodeScalars.contains($0) } == true
            && scalars.allSatisfy { isWordly($0) || "._-+/,:@%=".unicodeScalars.contains($0) }
        guard !plain else { return path }
        var word = "'"
        for c in scalars {
            if c == "'" { word += #"'\''"# } else { word.unicodeScalars.append(c) }
        }
        return word + "'"
    }

    /// The format `data` starts as, when it is one of the common ones and not PNG.
    init?(_ data: some Collection<UInt8>) {
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

    /// Text whose first element is `<svg`, after an optional byte-order mark and what XML
    /// allows before it: white space, an XML declaration or processing instructions, comments
    /// and a doctype (its internal subset too). An HTML page holding an `<svg>` is not one.
    private static func isSVG(_ head: [UInt8]) -> Bool {
        var text = Substring(String(decoding: head, as: UTF8.self))
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        func skip(past end: String) -> Bool {
            guard let range = text.firstRange(of: end) else { return false }
            text = text[range.upperBound...]
            return true
        }
        while true {
            text = text.drop { $0.isWhitespace }
            if text.hasPrefix("<?") {
                guard skip(past: "?>") else { return false }
            } else if text.hasPrefix("<!--") {
                guard skip(past: "-->") else { return false }
            } else if text.hasPrefix("<!DOCTYPE") || text.hasPrefix("<!doctype") {
                let subset = text.firstIndex(of: "[").map { open in text.firstIndex(of: ">").map { open < $0 } ?? true } ?? false
                guard subset ? skip(past: "]") && skip(past: ">") : skip(past: ">") else { return false }
            } else {
                guard text.hasPrefix("<svg") else { return false }
                let after = text.dropFirst(4).first
                return after == nil || after!.isWhitespace || after == ">" || after == "/"
            }
        }
    }
}
