import Carousel
import CarouselTestSupport
import Foundation
import Testing

/// The option table behind the library, the config file and the command line.
struct OptionTableTests {
    /// A valid value for every key, as a config file writes it.
    static let sample: [OptionKey: String] = [
        .size: "\"375x211\"", .itemWidth: "343", .spacing: "8", .align: "\"start\"", .clones: "3", .fit: "\"fit\"",
        .background: "\"#101014\"", .script: "\"hold 1; next\"", .scriptFile: "\"s.txt\"", .hold: "1.5",
        .duration: "\"300ms\"", .easing: "\"ease-out\"", .fps: "30", .dots: "\"footer\"", .dotsSwitch: "\"end\"",
        .dotSize: "6", .dotGap: "4.5", .dotColor: "\"#11223344\"", .dotCurrentColor: "\"#FF0000\"", .loop: "3",
        .colors: "64", .dither: "\"ordered\"", .quiet: "true", .touches: "\"none\"", .touchSize: "30",
        .touchColor: "\"#FF000080\"", .format: "\"webp\"", .quality: "90", .lossless: "false",
    ]

    @Test func everyKeyHasAFlagHelpAndAConfigKey() throws {
        #expect(Set(Self.sample.keys) == Set(OptionKey.allCases), "the sample covers the table")
        for key in OptionKey.allCases {
            #expect(key.flag.hasPrefix("--") && !key.flag.contains(where: \.isUppercase), "\(key)")
            #expect(!key.help.isEmpty && !key.expects.isEmpty, "\(key)")
        }
        #expect(OptionKey.itemWidth.flag == "--item-width" && OptionKey.dotCurrentColor.flag == "--dot-current-color")
        // Every key is accepted by a config file (scriptFile and script are exclusive: two files).
        let folder = TestPaths.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("hold 2; next".utf8).write(to: folder.appendingPathComponent("s.txt"))
        for exclusive in [OptionKey.script, .scriptFile] {
            let body = OptionKey.allCases.filter { $0 != exclusive }.map { "\"\($0.rawValue)\": \(Self.sample[$0]!)" }
            let path = folder.appendingPathComponent("all-\(exclusive).json").path
            try Data("{\(body.joined(separator: ", "))}".utf8).write(to: URL(fileURLWithPath: path))
            let file = try ConfigFile(path: path)
            #expect(file.values.count == OptionKey.allCases.count - 1)
            let options = try CarouselOptions(configFile: path)
            #expect(options.fps == 30 && options.hold == 1.5 && options.duration == 0.3 && options.dots.gap == 4.5)
            #expect(options.script?.entries.count == 2 && file.quiet == true)
        }
        // Both at once do not fit together: the file's usage error, as the two flags are.
        #expect(throws: CarouselError.configValue(file: "c.json", key: .scriptFile,
                                                  reason: "give either \"script\" or \"scriptFile\", not both")) {
            try ConfigFile(data: Data("{\"script\": \"hold 1\", \"scriptFile\": \"s.txt\"}".utf8), path: "c.json")
        }
    }

    /// Spaces and tabs around a value, a slip of quoting (`--size " 375x211"`), are dropped for
    /// every option alike, but not from a script file's name.
    @Test func spacesAroundAValueAreDropped() throws {
        for key in OptionKey.allCases where key != .scriptFile && key != .quiet {
            let written = Self.sample[key]!.replacingOccurrences(of: "\"", with: "")
            var plain = CarouselOptions(), padded = CarouselOptions()
            try plain.set(key, to: .text(written))
            try padded.set(key, to: .text(" \t\(written)\u{00A0} "))
            #expect(plain == padded, "\(key)")
        }
        var options = CarouselOptions()
        #expect(throws: CarouselError.invalidOption(key: .size, reason: "expected \(OptionKey.size.expects), got \"375 x211\"")) {
            try options.set(.size, to: .text(" 375 x211 "))
        }
        // A value of spaces alone is shown as typed, as a config file gives it too.
        #expect(throws: CarouselError.invalidOption(key: .fps, reason: "expected a whole number, got \" \t \"")) {
            try options.set(.fps, to: .text(" \t "))
        }
        let folder = TestPaths.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("hold 2; next".utf8).write(to: folder.appendingPathComponent("s.txt"))
        try options.set(.scriptFile, to: .text("s.txt"), context: OptionContext(folder: folder.path))
        #expect(options.script?.entries.count == 2)
        #expect(throws: CarouselError.self) {
            try options.set(.scriptFile, to: .text(" s.txt"), context: OptionContext(folder: folder.path))
        }
    }

    /// The library names an option by its key's Swift name, never a flag.
    @Test func libraryErrorsNameTheKey() {
        var options = CarouselOptions()
        options.fps = 60
        #expect(throws: CarouselError.invalidOption(key: .fps, reason: "must be 1...50, got 60")) { try options.validate() }
        #expect(CarouselError.invalidOption(key: .fps, reason: "must be 1...50, got 60").description == "fps: must be 1...50, got 60")
        var set = CarouselOptions()
        #expect(throws: CarouselError.invalidOption(key: .itemWidth, reason: "expected a whole number, got \"wide\"")) {
            try set.set(.itemWidth, to: .text("wide"))
        }
    }

    /// A whole number too large for `Int` is out of range, shown as written, not "expected a
    /// whole number"; from a config file, a whole number written with an exponent is one, and
    /// a fraction is still the wrong type.
    @Test func wholeNumbersBeyondIntAreOutOfRange() throws {
        var options = CarouselOptions()
        #expect(throws: CarouselError.invalidOption(key: .colors, reason: "must be 2...256, got 99999999999999999999")) {
            try options.set(.colors, to: .text("99999999999999999999"))
        }
        #expect(throws: CarouselError.invalidOption(key: .fps, reason: "must be 1...50, got -99999999999999999999")) {
            try options.set(.fps, to: .text(" -99999999999999999999"))
        }
        #expect(throws: CarouselError.invalidOption(key: .spacing, reason: "must be 0...1000000, got 1e+308")) {
            try options.set(.spacing, to: .number(1e308))
        }
        #expect(throws: CarouselError.invalidOption(key: .itemWidth, reason: "expected a whole number, got \"12e3\"")) {
            try options.set(.itemWidth, to: .text("12e3"))
        }
        try options.set(.colors, to: .number(1e2))
        #expect(options.colors == 100)
        func config(_ json: String) throws(CarouselError) -> CarouselOptions {
            var options = CarouselOptions()
            try ConfigFile(data: Data(json.utf8), path: "c.json").apply(to: &options)
            return options
        }
        #expect(throws: CarouselError.configValue(file: "c.json", key: .colors, reason: "must be 2...256, got 1e308")) {
            try config("{\"colors\": 1e308}")
        }
        #expect(try config("{\"fps\": 2e1}").fps == 20)
        #expect(throws: CarouselError.config(file: "c.json", key: "colors", reason: "expected a whole number, got 2.5")) {
            try config("{\"colors\": 2.5}")
        }
    }

    /// A number past `Double`'s or `Int`'s range is out of the option's range, a usage error
    /// naming the option and showing the number as written (spec 6), wherever it is written:
    /// in a config file or after a flag.
    @Test func numbersPastEveryRangeAreShownAsWritten() throws {
        func config(_ json: String) throws(CarouselError) -> CarouselOptions {
            var options = CarouselOptions()
            try ConfigFile(data: Data(json.utf8), path: "c.json").apply(to: &options)
            return options
        }
        let fromFile: [(String, OptionKey, String)] = [
            ("{\"fps\": 1e400}", .fps, "must be 1...50, got 1e400"),
            ("{\"fps\": -1e400}", .fps, "must be 1...50, got -1e400"),
            ("{\"clones\": 99999999999999999999}", .clones, "must be 1...100000 per side, got 99999999999999999999"),
            ("{\"clones\": 1e400}", .clones, "must be 1...100000 per side, got 1e400"),
            ("{\"hold\": 1e400}", .hold, "must be 0 to 3600 seconds, got 1e400"),
            ("{\"dotSize\": 1E+400}", .dotSize, "must be above 0 and at most 1000, got 1E+400"),
            ("{\"dotGap\": 99999999999999999999}", .dotGap, "must be 0...1000, got 99999999999999999999"),
            ("{\"size\": \"99999999999999999999x10\"}", .size, "width and height must be 1...65535, got 99999999999999999999x10"),
            ("{\"loop\": 99999999999999999999}", .loop,
             "expected forever, once or a number of plays from 1 to 65536, got 99999999999999999999"),
        ]
        for (json, key, reason) in fromFile {
            #expect(throws: CarouselError.configValue(file: "c.json", key: key, reason: reason), "\(json)") { try config(json) }
        }
        var options = CarouselOptions()
        let typed: [(OptionKey, String, String)] = [
            (.clones, "99999999999999999999", "must be 1...100000 per side, got 99999999999999999999"),
            (.size, "640x99999999999999999999", "width and height must be 1...65535, got 640x99999999999999999999"),
            (.dotSize, "99999999999999999999", "must be above 0 and at most 1000, got 99999999999999999999"),
            (.touchSize, String(repeating: "9", count: 400), "must be above 0 and at most 1000, got " + String(repeating: "9", count: 400)),
            (.dotSize, "1500.0", "must be above 0 and at most 1000, got 1500.0"),
        ]
        for (key, text, reason) in typed {
            #expect(throws: CarouselError.invalidOption(key: key, reason: reason), "\(key) \(text)") {
                try options.set(key, to: .text(text))
            }
        }
    }

    /// A decimal option on the command line, or as a config file's string, is written as
    /// script steps' distances are: digits with at most one point, after an optional sign.
    /// Hex, exponents, `inf`, `nan` and digit separators, which Swift's `Double` reads, are
    /// not numbers of pixels.
    @Test func decimalsAreDigitsAndAPoint() throws {
        var options = CarouselOptions()
        for text in ["0x10", "1e3", "inf", "nan", "1_0", "1.2.3", ".", "+", "", "٣"] {
            #expect(throws: CarouselError.invalidOption(key: .dotSize, reason: "expected a number of pixels, got \"\(text)\"")) {
                try options.set(.dotSize, to: .text(text))
            }
        }
        for (text, value) in [("8", 8.0), ("+8", 8), (".5", 0.5), ("2.", 2), ("007.50", 7.5)] {
            try options.set(.dotSize, to: .text(text))
            #expect(options.dots.size == value)
        }
        // A config file's JSON number keeps JSON's forms, exponents included.
        var fromFile = CarouselOptions()
        try ConfigFile(data: Data("{\"touchSize\": 3.2e1}".utf8), path: "c.json").apply(to: &fromFile)
        #expect(fromFile.touches.size == 32)
        // Durations and an easing's arguments are written the same way.
        try options.set(.hold, to: .text("+5"))
        try options.set(.duration, to: .text("-0"))
        #expect(options.hold == 5 && options.duration == 0)
        for text in ["cubic-bezier(0x1p-1,0,1e0,1)", "spring(1e0,5e-1)", "spring(inf,1)"] {
            #expect(throws: CarouselError.self, "\(text)") { try options.set(.easing, to: .text(text)) }
        }
        try options.set(.easing, to: .text("cubic-bezier(.25,+0.1,0.25,1.)"))
        #expect(options.easing == .cubicBezier(0.25, 0.1, 0.25, 1))
    }

    /// A config file's whole-number keys judge a fraction from its digits: one too small for a
    /// `Double` to keep (`25.000000000000001`) is still a fraction, the wrong JSON type, while
    /// `2.5e1` and `25.0` are whole.
    @Test func fractionsAreJudgedAsWritten() throws {
        func config(_ json: String) throws(CarouselError) -> CarouselOptions {
            var options = CarouselOptions()
            try ConfigFile(data: Data(json.utf8), path: "c.json").apply(to: &options)
            return options
        }
        for fraction in ["25.000000000000001", "2.0000000000000001e1", "5e-1", "1e-400"] {
            #expect(throws: CarouselError.config(file: "c.json", key: "fps", reason: "expected a whole number, got \(fraction)")) {
                try config("{\"fps\": \(fraction)}")
            }
        }
        #expect(throws: CarouselError.config(file: "c.json", key: "clones", reason: "expected \"auto\", \"set\" or a whole number, got 2.5")) {
            try config("{\"clones\": 2.5}")
        }
        for whole in ["2.5e1", "25.0", "250e-1", "0.025e3", "25"] {
            #expect(try config("{\"fps\": \(whole)}").fps == 25, "\(whole)")
        }
        #expect(try config("{\"clones\": 2e0}").clones == .count(2))
    }

    /// An empty file name is shown as `"" (an empty name)`, not as nothing before the colon, and
    /// one with spaces at either end in quotes.
    @Test func emptyNamesAreShown() {
        #expect(throws: CarouselError.input("", "no such file or folder")) { try ImageInputs.resolve([""]) }
        #expect(CarouselError.input("", "no such file or folder").description == "\"\" (an empty name): no such file or folder")
        #expect(CarouselError.emptyFolder("").description == "\"\" (an empty name): folder has no .png files")
        #expect(CarouselError.config(file: "", key: "fps", reason: "unknown key").description
            == "\"\" (an empty name): key \"fps\": unknown key")
        #expect(CarouselError.output("", "cannot write").description == "\"\" (an empty name): cannot write")
        #expect(CarouselError.input("a.png", "no such file or folder").description == "a.png: no such file or folder")
        #expect(CarouselError.input(" a.png\t", "no such file or folder").description == "\" a.png\\t\": no such file or folder")
        #expect(CarouselError.output("a b.gif", "cannot write").description == "a b.gif: cannot write")
    }

    /// `{"fps": 60}` names the file and the key, and no flag.
    @Test func configValueErrorNamesFileAndKey() throws {
        let folder = TestPaths.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("banner.json").path
        try Data("{\"fps\": 60}".utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try CarouselOptions(configFile: path)
            Issue.record("fps 60 accepted")
        } catch {
            #expect(error == .configValue(file: path, key: .fps, reason: "must be 1...50, got 60"))
            #expect(error.description == "\(path): key \"fps\": must be 1...50, got 60")
            #expect(!error.description.contains("--fps"))
        }
    }

    /// A UTF-8 byte-order mark before the JSON (Windows' Notepad writes one) is skipped; the
    /// JSON after it is read as strictly as ever, and its errors count columns after the mark.
    @Test func configByteOrderMarkIsSkipped() throws {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        var options = CarouselOptions()
        try ConfigFile(data: Data(mark + Array("{\"fps\": 10}\r\n".utf8)), path: "c.json").apply(to: &options)
        #expect(options.fps == 10)
        #expect(throws: CarouselError.input("c.json", "not valid JSON: expected a JSON value at line 1, column 1")) {
            try ConfigFile(data: Data(mark + mark + Array("{}".utf8)), path: "c.json")
        }
    }

    /// A config saved as UTF-16 or UTF-32, with a byte-order mark or without, is said to be
    /// so; before, it was `not valid JSON: expected a JSON value at line 1, column 1`.
    @Test func configInOtherEncodingsSaysSo() throws {
        let json = "{\"fps\": 10}"
        let utf16LE = json.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let utf16BE = json.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let utf32LE = json.unicodeScalars.flatMap { [UInt8($0.value & 0xFF), 0, 0, 0] }
        let utf32BE = json.unicodeScalars.flatMap { [0, 0, 0, UInt8($0.value & 0xFF)] }
        for bytes in [[0xFF, 0xFE] + utf16LE, [0xFE, 0xFF] + utf16BE, utf16LE, utf16BE, utf32LE, utf32BE,
                      [0, 0, 0xFE, 0xFF] + utf32BE, [0xEF, 0xBB, 0xBF] + utf16LE] {
            #expect(throws: CarouselError.input("c.json", "not UTF-8 text (UTF-16 or UTF-32); save it as UTF-8")) {
                try ConfigFile(data: Data(bytes), path: "c.json")
            }
        }
    }

    /// Other bytes with NULs near the start are not called UTF-16 or UTF-32: a gzip file
    /// (`1F 8B 08 00`) was, by a NUL among its first four bytes.
    @Test func binaryConfigIsNotCalledUTF16() throws {
        let gzip: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]
        #expect(throws: CarouselError.input("c.json.gz", "not valid JSON: expected a JSON value at line 1, column 1")) {
            try ConfigFile(data: Data(gzip), path: "c.json.gz")
        }
        #expect(throws: CarouselError.input("c.json", "not valid JSON: expected a JSON value at line 1, column 1")) {
            try ConfigFile(data: Data([0, 0x7B, 0x7D, 0]), path: "c.json")
        }
    }

    /// A time outside the timeline is said in the library's words.
    @Test func timeErrorsNameNoFlag() throws {
        let carousel = try Carousel(images: [RGBAImage(width: 4, height: 4, fill: .white), RGBAImage(width: 4, height: 4)],
                                    options: CarouselOptions())
        do {
            _ = try carousel.frame(at: 5)
            Issue.record("time 5 s accepted")
        } catch {
            #expect(error == .timeOutsideTimeline(5, length: 4.6))
            #expect(!error.description.contains("--"))
        }
    }
}
