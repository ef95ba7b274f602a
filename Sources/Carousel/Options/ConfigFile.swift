#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `--config FILE.json`: every option as its ``OptionKey`` (spec section 5).
///
/// The file must be one JSON object of known keys, each once, with a value of the
/// key's JSON type; anything else is a ``CarouselError/config(file:key:reason:)``.
/// A value out of range is a ``CarouselError/configValue(file:key:reason:)``. Both
/// name the file and the key, never a command-line flag. A relative `scriptFile` is
/// taken relative to the config file's folder.
public struct ConfigFile: Sendable {
    /// The largest config file read, in bytes.
    public static let maximumSize = 1 << 20

    /// The file's path, as given, and as errors name the file: `standard input` for `-`.
    public let path: String
    /// The options the file sets, in the order of ``OptionKey``.
    public let values: [(key: OptionKey, value: OptionValue)]
    /// Each number as the file writes it, for errors.
    private let numbers: [OptionKey: String]
    /// The folder a relative `scriptFile` is taken from; `nil` for the working directory.
    private let folder: String?

    /// Reads and checks `path`: a regular file, or a pipe (`-` for standard input, a FIFO, a
    /// shell's `<(command)`). A relative `scriptFile` is taken from the folder `path` names,
    /// or from the working directory for standard input and a descriptor's path such as
    /// `<(command)`'s `/dev/fd/63` or `/dev/stdin`. Errors name standard input as "standard input".
    public init(path: String) throws(CarouselError) {
        let name = InputFile.displayName(path)
        let data: Data
        do {
            data = try InputFile.read(path, limit: ConfigFile.maximumSize, as: "config file")
        } catch {
            // Said as a script file's is: `--config` names a file that is neither an image
            // nor an output.
            throw .input(name, "cannot read config file: \(error.reason)")
        }
        // `/dev/stdin` too: no folder of the user's is in `/dev`.
        let folder = Paths.split(path).folder
        let isDescriptor = path == InputFile.standardInputPath || AtomicOutput.isDescriptorPath(path) || folder == "/dev"
        try self.init(data: data, path: name, folder: isDescriptor ? nil : folder)
    }

    /// Checks `data` as the contents of a config file named `path` (for errors and relative `scriptFile`s).
    ///
    /// A UTF-8 byte-order mark before the JSON (as Windows' Notepad writes one) is skipped, as
    /// RFC 8259 lets a parser do; the JSON itself is read strictly.
    public init(data: Data, path: String) throws(CarouselError) {
        try self.init(data: data, path: path, folder: Paths.split(path).folder)
    }

    /// Checks `data` as the contents of a config file named `path` in errors, whose relative
    /// `scriptFile` is taken from `folder` (`nil`: the working directory).
    init(data: Data, path: String, folder: String?) throws(CarouselError) {
        self.path = path
        self.folder = folder
        let root: JSONValue
        let bytes = [UInt8](data)
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        // A file saved as UTF-16 or UTF-32 is said to be so, rather than as JSON's first error.
        if ConfigFile.isUTF16OrUTF32(body) {
            throw .input(path, "not UTF-8 text (UTF-16 or UTF-32); save it as UTF-8")
        }
        do {
            root = try StrictJSON.parse(body)
        } catch {
            if let key = error.duplicateKey {
                throw .config(file: path, key: key, reason: "given twice (\(error.description)); give each option once")
            }
            throw .input(path, "not valid JSON: \(error.description)")
        }
        guard case .object(let object) = root else {
            throw .config(file: path, key: "", reason: "expected a JSON object of options, e.g. {\"fps\": 25}")
        }
        var values: [(OptionKey, OptionValue)] = []
        var numbers: [OptionKey: String] = [:]
        for name in object.keys.sorted() {
            guard let key = OptionKey(rawValue: name) else {
                // An empty key is named too (`key ""`), where an empty `key` would name none.
                let expected = "unknown key; expected one of \(OptionKey.allCases.map(\.rawValue).joined(separator: ", "))"
                throw .config(file: path, key: name, reason: name.isEmpty ? "key \"\": " + expected : expected)
            }
            guard let json = object[name], key.acceptsJSON(json), let value = ConfigFile.optionValue(json) else {
                throw .config(file: path, key: name, reason: "expected \(key.jsonExpects), got \(object[name].map(String.init(describing:)) ?? "nothing")")
            }
            values.append((key, value))
            if case .number(let written) = json { numbers[key] = written }
        }
        if object["script"] != nil && object["scriptFile"] != nil {
            // Options that do not fit together: a usage error, as `--script` with `--script-file` is.
            throw .configValue(file: path, key: .scriptFile, reason: "give either \"script\" or \"scriptFile\", not both")
        }
        // The other either-or pair, refused here too, so a flag of the pair does not hide it:
        // the file is wrong whichever half a flag overrides.
        if object["quality"] != nil, case .bool(true)? = object["lossless"] {
            throw .configValue(file: path, key: .quality, reason: "give either quality or lossless, not both")
        }
        self.numbers = numbers
        self.values = OptionKey.allCases.compactMap { key in values.first { $0.0 == key } }.map { (key: $0.0, value: $0.1) }
    }

    /// Whether `bytes` start as JSON saved in UTF-16 or UTF-32 does: a byte-order mark of
    /// theirs, or, without one, the NULs that the first two characters (ASCII, in JSON) bring
    /// in each of the four layouts (RFC 4627, section 3). Other bytes with NULs, such as a
    /// gzip file's, are left to the parser, which says where the JSON fails.
    static func isUTF16OrUTF32(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0, 0, 0xFE, 0xFF]) {
            return true
        }
        guard bytes.count >= 4 else { return false }
        let zero = bytes.prefix(4).map { $0 == 0 }
        return zero == [true, true, true, false] || zero == [true, false, true, false]
            || zero == [false, true, true, true] || zero == [false, true, false, true]
    }

    /// `quiet`, if the file sets it.
    public var quiet: Bool? {
        for (key, value) in values where key == .quiet {
            if case .boolean(let b) = value { return b }
        }
        return nil
    }

    /// Sets every option the file gives on `options`; errors name the file and the key.
    public func apply(to options: inout CarouselOptions) throws(CarouselError) {
        let context = OptionContext(scriptName: "\(path): key \"script\"", folder: folder)
        for (key, value) in values {
            do throws(CarouselError) {
                try options.set(key, to: value, written: numbers[key], context: context)
            } catch {
                guard case let .invalidOption(key, reason) = error else { throw error }
                throw .configValue(file: path, key: key, reason: reason)
            }
        }
    }

    private static func optionValue(_ json: JSONValue) -> OptionValue? {
        switch json {
        case .string(let s): return .text(s)
        case .number(let n):
            // Whole numbers as `Int`; the rest, and whole numbers past `Int`, as `Double`
            // (an infinity past its range): the option's range check refuses them as written.
            if let whole = Int(n) { return .integer(whole) }
            return Double(n).map(OptionValue.number)
        case .bool(let b): return .boolean(b)
        case .null, .array, .object: return nil
        }
    }
}

extension CarouselOptions {
    /// The options a `--config FILE.json` gives, over the defaults.
    public init(configFile path: String) throws(CarouselError) {
        self.init()
        try ConfigFile(path: path).apply(to: &self)
    }
}

extension OptionKey {
    /// Whether a config file may give this key `json`'s JSON type.
    func acceptsJSON(_ json: JSONValue) -> Bool {
        switch (self, json) {
        case (.quiet, .bool), (.lossless, .bool): return true
        case (.quiet, _), (.lossless, _), (_, .bool): return false
        // A whole number, also written with an exponent (2.5e1) or past every type (1e400):
        // the option's range check judges it. A fraction, judged from its digits
        // (25.000000000000001), is the wrong type.
        case (.itemWidth, .number), (.spacing, .number), (.fps, .number), (.colors, .number),
             (.clones, .number), (.loop, .number):
            return !json.isFractional
        case (.itemWidth, _), (.spacing, _), (.fps, _), (.colors, _): return false
        case (.quality, .number), (.hold, .number), (.duration, .number), (.dotSize, .number),
             (.dotGap, .number), (.touchSize, .number): return true
        case (.quality, _), (.dotSize, _), (.dotGap, _), (.touchSize, _): return false
        case (_, .string): return true
        default: return false
        }
    }

    /// What a config file's value for this key must be, in JSON terms.
    var jsonExpects: String {
        switch self {
        case .itemWidth, .spacing, .fps, .colors: return "a whole number"
        case .clones: return "\"auto\", \"set\" or a whole number"
        case .loop: return "\"forever\", \"once\" or a whole number"
        case .hold, .duration: return "a number of seconds or a duration string such as \"300ms\""
        case .dotSize, .dotGap, .touchSize: return "a number"
        case .quiet, .lossless: return "true or false"
        case .quality: return "a number from 0 to 100"
        case .size: return "a string \"WxH\""
        default: return "a string: \(expects)"
        }
    }
}

/// A JSON value; a number is kept as written (`25`, `1.5`, `1e400`).
enum JSONValue: Sendable, Equatable, CustomStringConvertible {
    case null, bool(Bool), number(String), string(String), array([JSONValue]), object([String: JSONValue])

    /// A number with a fraction, however small (`25.000000000000001`, `5e-1`), as
    /// written: not whole, though the nearest `Double` may be.
    var isFractional: Bool {
        if case .number(let n) = self { return !Numerals.isWhole(json: n) }
        return false
    }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return String(b)
        case .number(let n): return n
        case .string(let s): return "\"\(s)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
