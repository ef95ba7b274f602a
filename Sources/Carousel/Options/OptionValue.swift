/// A value given for an option, as the command line or a config file gives it.
public enum OptionValue: Sendable, Equatable, CustomStringConvertible {
    /// Text, as typed after a flag or a JSON string.
    case text(String)
    /// A JSON whole number.
    case integer(Int)
    /// A JSON number with a fraction or an exponent, or too large for `Int`.
    case number(Double)
    /// A JSON `true` or `false`.
    case boolean(Bool)

    /// The value as a reader wrote it: text in quotes.
    public var description: String {
        switch self {
        case .text(let s): return "\"\(s)\""
        case .integer(let n): return String(n)
        case .number(let d): return String(d)
        case .boolean(let b): return String(b)
        }
    }
}

/// Where option values come from, for what only the surface knows: how to name a
/// script in errors, and what a relative `scriptFile` is relative to.
public struct OptionContext: Sendable {
    /// How script errors name an inline script, e.g. `--script` or `banner.json: key "script"`.
    public var scriptName: String
    /// The folder a relative `scriptFile` path is taken from; `nil` for the working directory.
    public var folder: String?

    /// A context naming inline scripts `scriptName`, relative paths from `folder`.
    public init(scriptName: String = "script", folder: String? = nil) {
        self.scriptName = scriptName
        self.folder = folder
    }
}
