import Foundation

/// A `--config FILE.json`: every option as a camelCase key (spec section 5).
///
/// Keys are checked against the known options and their types; an unknown key, a
/// value of the wrong type or a bad value is an error naming the file and the key.
/// A relative `scriptFile` is taken relative to the config file's folder.
public struct ConfigFile: Sendable {
    /// Every key a config file may hold, and what its value must be.
    public static let keys: [(key: String, expects: String)] = [
        ("size", "a string \"WxH\""), ("itemWidth", "a whole number"), ("spacing", "a whole number"),
        ("align", "\"start\" or \"center\""), ("clones", "\"auto\", \"set\" or a whole number"),
        ("fit", "\"fill\", \"fit\" or \"stretch\""), ("background", "a colour \"#RRGGBB\" or \"#RRGGBBAA\""),
        ("script", "a string"), ("scriptFile", "a path string"), ("hold", "a number of seconds"),
        ("duration", "a number of seconds"), ("easing", "an easing name string"), ("fps", "a whole number"),
        ("dots", "\"overlay\", \"footer\" or \"none\""), ("dotsSwitch", "\"half\", \"start\" or \"end\""),
        ("dotSize", "a number"), ("dotGap", "a number"), ("dotColor", "a colour string"),
        ("dotCurrentColor", "a colour string"), ("loop", "\"forever\", \"once\" or a whole number"),
        ("colors", "a whole number"), ("dither", "\"none\", \"ordered\" or \"diffusion\""), ("quiet", "true or false"),
    ]

    /// The file's path, as given.
    public let path: String
    private let values: [String: JSONValue]

    /// Reads and checks `path`.
    public init(path: String) throws(CarouselError) {
        self.path = path
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .input(path, FileErrors.reason(error, path: path))
        }
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw .input(path, "not valid JSON: \(ConfigFile.jsonReason(error, data: data))")
        }
        guard case .object(let object) = root else {
            throw .input(path, "not valid config: expected a JSON object of options, e.g. {\"fps\": 25}")
        }
        let known = Set(ConfigFile.keys.map(\.key))
        for key in object.keys.sorted() where !known.contains(key) {
            throw .config(file: path, key: key, reason: "unknown key; expected one of \(ConfigFile.keys.map(\.key).joined(separator: ", "))")
        }
        values = object
    }

    /// `quiet`, if the file sets it.
    public var quiet: Bool? {
        if case .bool(let b)? = values["quiet"] { return b }
        return nil
    }

    /// Sets every option the file gives on `options`.
    public func apply(to options: inout CarouselOptions) throws(CarouselError) {
        if let v = values["size"] {
            let text = try string(v, "size")
            let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { throw bad("size", v) }
            options.size = PixelSize(width: w, height: h)
        }
        if let v = values["itemWidth"] { options.itemWidth = try int(v, "itemWidth") }
        if let v = values["spacing"] { options.spacing = try int(v, "spacing") }
        if let v = values["align"] { options.align = try parsed(v, "align", Alignment.init(rawValue:)) }
        if let v = values["clones"] {
            if case .int(let k) = v {
                options.clones = .count(k)
            } else {
                options.clones = try parsed(v, "clones", ClonePolicy.init)
            }
            if case .count(let k) = options.clones, k < 0 { throw bad("clones", v) }
        }
        if let v = values["fit"] { options.fit = try parsed(v, "fit", FitMode.init(rawValue:)) }
        if let v = values["background"] { options.background = try parsed(v, "background", RGBA.init(hex:)) }
        if values["script"] != nil && values["scriptFile"] != nil {
            throw .config(file: path, key: "scriptFile", reason: "give either \"script\" or \"scriptFile\", not both")
        }
        if let v = values["script"] { options.script = try Script(parsing: string(v, "script"), source: "\(path): key \"script\"") }
        if let v = values["scriptFile"] {
            let file = try string(v, "scriptFile")
            let resolved = file.hasPrefix("/") ? file
                : URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(file).path
            options.script = try Script.load(path: resolved)
        }
        if let v = values["hold"] { options.hold = try number(v, "hold") }
        if let v = values["duration"] { options.duration = try number(v, "duration") }
        if let v = values["easing"] { options.easing = try parsed(v, "easing", Easing.init) }
        if let v = values["fps"] { options.fps = try int(v, "fps") }
        if let v = values["dots"] { options.dots.placement = try parsed(v, "dots", DotsPlacement.init(rawValue:)) }
        if let v = values["dotsSwitch"] { options.dotsSwitch = try parsed(v, "dotsSwitch", DotsSwitch.init(rawValue:)) }
        if let v = values["dotSize"] { options.dots.size = try number(v, "dotSize") }
        if let v = values["dotGap"] { options.dots.gap = try number(v, "dotGap") }
        if let v = values["dotColor"] { options.dots.color = try parsed(v, "dotColor", RGBA.init(hex:)) }
        if let v = values["dotCurrentColor"] { options.dots.currentColor = try parsed(v, "dotCurrentColor", RGBA.init(hex:)) }
        if let v = values["loop"] {
            if case .int(let n) = v {
                options.loop = try LoopMode(String(n)).orThrow(bad("loop", v))
            } else {
                options.loop = try parsed(v, "loop", LoopMode.init)
            }
        }
        if let v = values["colors"] { options.colors = try int(v, "colors") }
        if let v = values["dither"] { options.dither = try parsed(v, "dither", Dither.init(rawValue:)) }
        if let v = values["quiet"], quiet == nil { throw wrongType("quiet", v) }
    }

    private func expects(_ key: String) -> String {
        ConfigFile.keys.first { $0.key == key }?.expects ?? "a value"
    }

    private func wrongType(_ key: String, _ value: JSONValue) -> CarouselError {
        .config(file: path, key: key, reason: "expected \(expects(key)), got \(value)")
    }

    private func bad(_ key: String, _ value: JSONValue) -> CarouselError {
        .config(file: path, key: key, reason: "\(value) is not allowed; expected \(expects(key))")
    }

    private func string(_ v: JSONValue, _ key: String) throws(CarouselError) -> String {
        guard case .string(let s) = v else { throw wrongType(key, v) }
        return s
    }

    private func int(_ v: JSONValue, _ key: String) throws(CarouselError) -> Int {
        guard case .int(let n) = v else { throw wrongType(key, v) }
        return n
    }

    private func number(_ v: JSONValue, _ key: String) throws(CarouselError) -> Double {
        switch v {
        case .int(let n): return Double(n)
        case .double(let d): return d
        default: throw wrongType(key, v)
        }
    }

    private func parsed<T>(_ v: JSONValue, _ key: String, _ make: (String) -> T?) throws(CarouselError) -> T {
        guard let value = make(try string(v, key)) else { throw bad(key, v) }
        return value
    }

    private static func jsonReason(_ error: any Error, data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            if let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String { return detail }
        }
        if case DecodingError.dataCorrupted(let context) = error {
            if let underlying = context.underlyingError as NSError?,
               let detail = underlying.userInfo[NSDebugDescriptionErrorKey] as? String {
                return detail
            }
            return context.debugDescription
        }
        return "\(error)"
    }
}

extension Optional {
    func orThrow(_ error: CarouselError) throws(CarouselError) -> Wrapped {
        guard let self else { throw error }
        return self
    }
}

/// A JSON value that keeps whole numbers, fractions, booleans and strings apart.
enum JSONValue: Decodable, Sendable, CustomStringConvertible {
    case null, bool(Bool), int(Int), double(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Int.self) {
            self = .int(n)
        } else if let d = try? c.decode(Double.self) {
            self = .double(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return String(b)
        case .int(let n): return String(n)
        case .double(let d): return String(d)
        case .string(let s): return "\"\(s)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
