/// Parses durations in the script and option syntax: `1.5`, `1.5s` or `300ms`.
///
/// Durations are kept in whole microseconds so step boundaries and frame times
/// compare exactly (frame i is at `i * 1_000_000 / fps` µs).
public enum TimeValue {
    /// Microseconds for `text`, or `nil` when it is not a non-negative duration.
    public static func microseconds(_ text: some StringProtocol) -> Int? {
        var body = Substring(text)
        var scale = 1_000_000.0
        if body.hasSuffix("ms") {
            body = body.dropLast(2)
            scale = 1_000
        } else if body.hasSuffix("s") {
            body = body.dropLast()
        }
        guard !body.isEmpty, body.allSatisfy({ $0.isNumber || $0 == "." }),
              let value = Double(body), value.isFinite, value >= 0, value * scale < 1e15 else { return nil }
        return Int((value * scale).rounded())
    }

    /// Seconds as microseconds, or `nil` when negative, not finite or absurdly large.
    public static func microseconds(seconds: Double) -> Int? {
        guard seconds.isFinite, seconds >= 0, seconds < 1e9 else { return nil }
        return Int((seconds * 1_000_000).rounded())
    }
}
