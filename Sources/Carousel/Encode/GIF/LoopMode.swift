/// How many times a viewer plays the animation: forever, or a number of plays from 1 to 65536.
///
/// A value outside that range cannot be made: ``plays(_:)`` is failable.
public struct LoopMode: Hashable, Sendable, CustomStringConvertible {
    /// Total plays, or `nil` for endlessly.
    public let plays: Int?

    /// The most plays a GIF's NETSCAPE2.0 block can say (loop count 65535 after the first play).
    public static let maximumPlays = 65536

    /// Endlessly.
    public static let forever = LoopMode(uncheckedPlays: nil)
    /// One play, no repeat.
    public static let once = LoopMode(uncheckedPlays: 1)

    private init(uncheckedPlays: Int?) {
        plays = uncheckedPlays
    }

    /// `count` plays in total, or `nil` unless `count` is 1...65536.
    public static func plays(_ count: Int) -> LoopMode? {
        (1...maximumPlays).contains(count) ? LoopMode(uncheckedPlays: count) : nil
    }

    /// Parses `forever`, `once` (in any case, as the command line and ``Easing`` take words)
    /// or a whole number of plays from 1 to 65536.
    public init?(_ text: String) {
        switch text.lowercased() {
        case "forever": self = .forever
        case "once": self = .once
        default:
            guard let n = Int(text), let mode = LoopMode.plays(n) else { return nil }
            self = mode
        }
    }

    /// The NETSCAPE2.0 repeat count, or `nil` when no loop block is written (a single play).
    public var netscapeCount: Int? {
        guard let plays else { return 0 }
        return plays == 1 ? nil : plays - 1
    }

    /// `forever`, `once` or the number of plays, as the option takes it.
    public var description: String {
        switch plays {
        case nil: return "forever"
        case 1?: return "once"
        case let n?: return String(n)
        }
    }
}
