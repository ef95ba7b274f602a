/// How many times a viewer plays the GIF.
public enum LoopMode: Equatable, Sendable, CustomStringConvertible {
    /// Endlessly (NETSCAPE2.0 loop count 0).
    case forever
    /// This many plays in total, 1...65536 (loop count N - 1; no loop block for 1).
    case plays(Int)

    /// Parses `forever`, `once` or a whole number of plays from 1 to 65536.
    public init?(_ text: String) {
        switch text {
        case "forever": self = .forever
        case "once": self = .plays(1)
        default:
            guard let n = Int(text), (1...65536).contains(n) else { return nil }
            self = .plays(n)
        }
    }

    /// The NETSCAPE2.0 repeat count, or `nil` when no loop block is written (a single play).
    public var netscapeCount: Int? {
        switch self {
        case .forever: return 0
        case .plays(let n): return n == 1 ? nil : n - 1
        }
    }

    /// `forever`, `once` or the number of plays, as the option takes it.
    public var description: String {
        switch self {
        case .forever: return "forever"
        case .plays(1): return "once"
        case .plays(let n): return String(n)
        }
    }
}
