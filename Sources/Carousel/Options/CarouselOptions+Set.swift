#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CarouselOptions {
    /// Sets option `key` from `given`, parsing text the way the command line and the
    /// config file both write it, then checks its range.
    ///
    /// Throws ``CarouselError/invalidOption(key:reason:)`` for a value that does not
    /// parse or is out of range, ``CarouselError/script(source:step:line:text:reason:)``
    /// for a bad script, and ``CarouselError/input(_:_:)`` for an unreadable script file.
    /// `quiet` is accepted and ignored: it concerns the command line's output only.
    ///
    /// Spaces and tabs at either end of a text value are dropped (`--fps " 25"`, `"size":
    /// "375x211 "`: a slip of quoting), except in a script file's name, where they may
    /// belong to the name.
    public mutating func set(_ key: OptionKey, to given: OptionValue,
                             context: OptionContext = OptionContext()) throws(CarouselError) {
        try set(key, to: given, written: nil, context: context)
    }

    /// ``set(_:to:context:)`` for a number `written` as a config file writes it (`1e400`,
    /// `99999999999999999999`), which errors show rather than the `Double` read from it.
    mutating func set(_ key: OptionKey, to given: OptionValue, written: String?,
                      context: OptionContext) throws(CarouselError) {
        // The value trimmed, and as an error shows it (``StringProtocol/shownTrimmed``).
        let typed: String? = if case .text(let s) = given, key != .scriptFile { s } else { nil }
        let value = typed.map { OptionValue.text($0.trimmingSpaces) } ?? given
        let shown = typed.map { "\"\($0.shownTrimmed)\"" } ?? written ?? given.description
        func invalid() -> CarouselError { .invalidOption(key: key, reason: "expected \(key.expects), got \(shown)") }
        func text() throws(CarouselError) -> String {
            guard case .text(let s) = value else { throw invalid() }
            return s
        }
        // A whole number too large for `Int` (digits with an optional sign, or a JSON number
        // without a fraction) is out of range rather than not a whole number: it is read as
        // `Int.max` or `Int.min`, and the range check's message shows it as written.
        var clamped = false
        func integer() throws(CarouselError) -> Int {
            switch value {
            case .integer(let n): return n
            case .number(let d):
                guard d == d.rounded() else { throw invalid() }
                if let n = Int(exactly: d) { return n }
                clamped = true
                return d < 0 ? .min : .max
            case .text(let t):
                guard let (n, beyond) = Numerals.whole(t) else { throw invalid() }
                clamped = beyond
                return n
            case .boolean: throw invalid()
            }
        }
        func number() throws(CarouselError) -> Double {
            switch value {
            case .integer(let n): return Double(n)
            case .number(let d): return d
            case .text(let s):
                guard let d = Numerals.decimal(s) else { throw invalid() }
                return d
            case .boolean: throw invalid()
            }
        }
        func time() throws(CarouselError) -> MediaTime {
            switch value {
            case .integer, .number:
                let seconds = try number()
                guard let time = MediaTime(seconds: seconds), seconds >= 0 else {
                    throw .invalidOption(key: key, reason: "\(MediaTime.rangeRefusal), got \(shown)")
                }
                return time
            case .text(let s):
                guard let time = MediaTime(parsing: s) else {
                    throw .invalidOption(key: key, reason: MediaTime.optionRefusal(typed ?? s))
                }
                return time
            case .boolean: throw invalid()
            }
        }
        func parsed<T>(_ make: (String) -> T?) throws(CarouselError) -> T {
            guard let result = make(try text()) else { throw invalid() }
            return result
        }
        // An enumerated value, read in any case (`--format GIF`, `"dots": "Footer"`), as
        // easings, `WxH` and script steps are.
        func word<T>(_ make: (String) -> T?) throws(CarouselError) -> T {
            try parsed { make($0.lowercased()) }
        }
        // A whole number or an enumerated word (`--loop Forever`, `"clones": 2`).
        // A number, even past `Int`, goes through ``integer()`` so its range error shows it.
        func wholeOrWord<T>(_ make: (String) -> T?) throws(CarouselError) -> T {
            if case .text(let t) = value, Numerals.whole(t) == nil { return try word(make) }
            guard let result = make(String(try integer())) else { throw invalid() }
            return result
        }

        switch key {
        case .size: size = try parsed(PixelSize.init(parsing:))
        case .itemWidth: itemWidth = try integer()
        case .spacing: spacing = try integer()
        case .align: align = try word(ItemAlignment.init(rawValue:))
        case .clones: clones = try wholeOrWord(ClonePolicy.init)
        case .fit: fit = try word(FitMode.init(rawValue:))
        case .background: background = try parsed(RGBA.init(hex:))
        case .script: script = try Script(parsing: text(), source: context.scriptName)
        case .scriptFile:
            // A relative path joined to the config file's folder as the user wrote that (so
            // errors name the file where it was looked for: `cfg/intro.txt`, not `intro.txt`).
            // An empty one is no file, wherever the config is: not its folder; `-` is standard input.
            let path = try text()
            let isLiteral = path.isEmpty || path == InputFile.standardInputPath
            script = try Script.load(path: isLiteral ? path : Paths.join(context.folder ?? "", path))
        case .hold: hold = try time()
        case .duration: duration = try time()
        case .easing: easing = try parsed(Easing.init)
        case .fps: fps = try integer()
        case .dots: dots.placement = try word(DotsPlacement.init(rawValue:))
        case .dotsSwitch: dotsSwitch = try word(DotsSwitch.init(rawValue:))
        case .dotSize: dots.size = try number()
        case .dotGap: dots.gap = try number()
        case .dotColor: dots.color = try parsed(RGBA.init(hex:))
        case .dotCurrentColor: dots.currentColor = try parsed(RGBA.init(hex:))
        case .format: format = try word(OutputFormat.init(rawValue:))
        case .quality: quality = try number()
        case .lossless:
            switch value {
            case .boolean(let b): lossless = b
            case .text("true"): lossless = true
            case .text("false"): lossless = false
            default: throw invalid()
            }
        case .touches: touches.mode = try word(TouchesMode.init(rawValue:))
        case .touchSize: touches.size = try number()
        case .touchColor: touches.color = try parsed(RGBA.init(hex:))
        case .loop: loop = try wholeOrWord(LoopMode.init)
        case .colors: colors = try integer()
        case .dither: dither = try word(Dither.init(rawValue:))
        case .quiet:
            guard case .boolean = value else { throw invalid() }
        }
        if let reason = problem(with: key) {
            // A number's or a size's range error ends in "got <value>"; it shows the value as
            // written (`99999999999999999999`, `1e400`, `0640x360`), not as read.
            var got = reason.endIndex
            while got > reason.startIndex, !reason[..<got].hasSuffix("got ") { got = reason.index(before: got) }
            if key.isNumeric, got > reason.startIndex,
               let asWritten = typed?.shownTrimmed ?? written ?? (clamped ? given.description : nil) {
                throw .invalidOption(key: key, reason: reason[..<got] + asWritten)
            }
            throw .invalidOption(key: key, reason: reason)
        }
        // Every whole-number option has a range that `Int.max` and `Int.min` are outside.
        if clamped { throw invalid() }
    }
}
