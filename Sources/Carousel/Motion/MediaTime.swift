/// A time or a length of time in whole microseconds: the one time type from options to frames.
///
/// Whole microseconds make step boundaries and frame times compare exactly (frame i
/// starts at `i * 1_000_000 / fps` µs, compared in integers). Literals are seconds, so
/// `frame(at: 2.15)` and `options.hold = 1.5` read as they do in the spec. Durations
/// in scripts and options are written `1.5`, `1.5s` or `300ms`.
public struct MediaTime: Hashable, Comparable, Sendable, CustomStringConvertible,
                         ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// The time in microseconds.
    public let microseconds: Int

    /// The longest time any timeline, option or script step may give: one hour.
    public static let maximum = MediaTime(microseconds: 3_600_000_000)
    /// No time at all.
    public static let zero = MediaTime(microseconds: 0)

    /// A time of `microseconds` µs.
    public init(microseconds: Int) {
        self.microseconds = microseconds
    }

    /// `seconds` rounded to whole microseconds, or `nil` when it is not finite or beyond ±``maximum``.
    public init?(seconds: Double) {
        guard seconds.isFinite, abs(seconds) <= Double(MediaTime.maximum.microseconds) / 1_000_000 else { return nil }
        microseconds = Int((seconds * 1_000_000).rounded())
    }

    /// Parses `1.5`, `1.5s` or `300ms`: a duration from 0 (`-0` too) to one hour.
    public init?(parsing text: some StringProtocol) {
        guard let (value, scale) = MediaTime.written(text), value >= 0,
              value * scale <= Double(MediaTime.maximum.microseconds) else { return nil }
        microseconds = Int((value * scale).rounded())
    }

    /// Whether `text` is written as a duration (`1.5`, `+1.5s` or `300ms`: a decimal number
    /// as every option writes one, then `s`, `ms` (in any case) or nothing), whatever its
    /// value: what tells a time out of range (`-1`, `4000`) apart from text that is no time
    /// at all (`1e-3`).
    public static func isWritten(_ text: some StringProtocol) -> Bool { written(text) != nil }

    /// Why ``init(parsing:)`` refuses `text`, for an option's error: out of range when it is
    /// written as a duration (``isWritten(_:)``), otherwise not a duration.
    public static func refusal(_ text: some StringProtocol) -> String {
        isWritten(text) ? rangeRefusal : "expected seconds written 2, 1.5s or 300ms"
    }

    /// Why ``init(parsing:)`` refuses an option's value `typed`, and the value as an option's
    /// error shows it: a duration out of range as written, as every number is (`must be 0 to
    /// 3600 seconds, got 7200s`); text that is no duration, in quotes. `--hold`, `--duration`
    /// and `frame --at` all say it so.
    package static func optionRefusal(_ typed: String) -> String {
        let shown = typed.shownTrimmed
        return "\(refusal(typed.trimmingSpaces)), got \(isWritten(typed.trimmingSpaces) ? shown : "\"\(shown)\"")"
    }

    /// Why this time is refused as a duration, below 0 or past ``maximum`` (`must be 0 to 3600
    /// seconds, got 7200`), or `nil`: the one check of options, steps and timelines made in Swift.
    public var durationRefusal: String? {
        (MediaTime.zero ... MediaTime.maximum).contains(self) ? nil
            : "\(MediaTime.rangeRefusal), got \(CarouselOptions.written(seconds))"
    }

    /// The reason a time out of range is refused: `must be 0 to 3600 seconds`.
    public static let rangeRefusal = "must be 0 to \(maximum.microseconds / 1_000_000) seconds"

    /// Whether the duration `text` writes (as ``init(parsing:)`` reads it) lies before `time`
    /// before it is rounded to the microsecond: `4.5999999` lies before 4.6 s, which it
    /// rounds to.
    package static func writes(_ text: some StringProtocol, before time: MediaTime) -> Bool {
        guard let (value, scale) = written(text) else { return false }
        return value * scale < Double(time.microseconds)
    }

    /// The number `text` writes (``Numerals/decimal(_:)``: infinite when its digits overflow
    /// a `Double`, which the range refuses) and the microseconds in its unit, when it is
    /// written as a duration.
    private static func written(_ text: some StringProtocol) -> (value: Double, scale: Double)? {
        var body = Substring(text)
        var scale = 1_000_000.0
        // The unit in any case (`1.5S`, `300MS`), as option words and script steps are read.
        if body.suffix(2).lowercased() == "ms" {
            body = body.dropLast(2)
            scale = 1_000
        } else if body.last == "s" || body.last == "S" {
            body = body.dropLast()
        }
        guard let value = Numerals.decimal(body) else { return nil }
        return (value, scale)
    }

    /// A literal number of seconds, kept as written up to ±``literalLimit`` (and clamped
    /// there), so that an option or a step set past ``maximum`` in Swift (`options.hold =
    /// 7200`) is refused by the range checks as its text would be, not cut to one hour.
    public init(floatLiteral seconds: Double) {
        let limit = Double(MediaTime.literalLimit.microseconds)
        microseconds = seconds.isNaN ? 0 : Int(max(-limit, min(limit, (seconds * 1_000_000).rounded())))
    }

    /// A literal whole number of seconds, as ``init(floatLiteral:)`` keeps one.
    public init(integerLiteral seconds: Int) {
        let limit = MediaTime.literalLimit.microseconds / 1_000_000
        microseconds = max(-limit, min(limit, seconds)) * 1_000_000
    }

    /// `duration` rounded to whole microseconds (`MediaTime(.milliseconds(300))`), kept as
    /// a literal is, up to ±``literalLimit``, so the range checks refuse what is out of range.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let limit = Int64(MediaTime.literalLimit.microseconds / 1_000_000)
        guard seconds < limit, seconds > -limit else {
            microseconds = seconds < 0 ? -MediaTime.literalLimit.microseconds : MediaTime.literalLimit.microseconds
            return
        }
        // Attoseconds to microseconds, to nearest (half away from zero), as literals round;
        // in whole numbers, since a `Double` cannot hold 18 digits.
        let perMicrosecond: Int64 = 1_000_000_000_000
        let (whole, rest) = attoseconds.quotientAndRemainder(dividingBy: perMicrosecond)
        let rounded = whole + (abs(rest) * 2 >= perMicrosecond ? rest.signum() : 0)
        microseconds = Int(seconds) * 1_000_000 + Int(rounded)
    }

    /// The length of time as a `Duration`, e.g. for `Task.sleep(for:)`.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public var duration: Duration { .microseconds(microseconds) }

    /// The longest literal kept as written: a million hours, far past ``maximum``, and far
    /// enough below `Int.max` microseconds that two such times add without overflow.
    public static let literalLimit = MediaTime(microseconds: 3_600_000_000 * 1_000_000)

    /// The time in seconds.
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    /// Seconds, e.g. `1.5 s`.
    public var description: String { "\(Numerals.plain(seconds)) s" }

    /// Earlier first.
    public static func < (a: MediaTime, b: MediaTime) -> Bool { a.microseconds < b.microseconds }

    /// The sum of two times (trapping on overflow, as `Int`'s `+` does).
    public static func + (a: MediaTime, b: MediaTime) -> MediaTime {
        MediaTime(microseconds: a.microseconds + b.microseconds)
    }

    /// The difference of two times (trapping on overflow, as `Int`'s `-` does): `end - start`,
    /// or a frame's time less a step's (`try carousel.frame(at: t - 0.04)`, the frame before).
    public static func - (a: MediaTime, b: MediaTime) -> MediaTime {
        MediaTime(microseconds: a.microseconds - b.microseconds)
    }
}
