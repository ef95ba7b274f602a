/// How options and script steps write numbers: the one reader of whole and decimal numbers
/// in text, so `--dot-size`, `--size` and `drag DX` take the same forms.
enum Numerals {
    /// The whole number `text` writes (ASCII digits after an optional `+` or `-`), clamped
    /// to `Int`'s range, and whether it had to be: a number past `Int` is still one, which a
    /// range check refuses as written rather than as "not a number".
    static func whole(_ text: some StringProtocol) -> (value: Int, clamped: Bool)? {
        if let n = Int(text) { return (n, false) }
        let negative = text.hasPrefix("-")
        let digits = Substring(text).dropFirst(negative || text.hasPrefix("+") ? 1 : 0)
        guard !digits.isEmpty, digits.allSatisfy(isDigit) else { return nil }
        return (negative ? .min : .max, true)
    }

    /// The decimal number `text` writes: an optional `+` or `-`, then ASCII digits with at
    /// most one point among or around them (`8`, `-120`, `.5`, `2.`). No exponent, hex,
    /// `inf`, `nan` or digit separators, which `Double(_:)` would take. Digits past
    /// `Double`'s range give an infinity, which every range refuses.
    static func decimal(_ text: some StringProtocol) -> Double? {
        let body = Substring(text).dropFirst(text.hasPrefix("-") || text.hasPrefix("+") ? 1 : 0)
        guard body.contains(where: isDigit), body.allSatisfy({ isDigit($0) || $0 == "." }),
              body.filter({ $0 == "." }).count <= 1 else { return nil }
        return Double(String(text))
    }

    /// Whether a JSON number as written (`25`, `2.5e1`, `1e400`, `25.000000000000001`) is
    /// a whole number, judged from its digits rather than from the `Double` nearest it.
    static func isWhole(json text: some StringProtocol) -> Bool {
        var mantissa = Substring(text)
        var exponent = 0
        if let e = mantissa.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            // Far past any digit count, so the sum below cannot overflow.
            exponent = max(-1 << 40, min(1 << 40, whole(mantissa[mantissa.index(after: e)...])?.value ?? 0))
            mantissa = mantissa[..<e]
        }
        let parts = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integral = parts[0].drop { $0 == "-" }
        let digits = integral + (parts.count > 1 ? parts[1] : "")
        // The digits left after the point once the exponent has moved it.
        return digits.dropFirst(max(0, integral.count + exponent)).allSatisfy { $0 == "0" }
    }

    /// `x` as `description` writes it (the shortest decimal that reads back as `x`), with the
    /// point moved rather than an exponent: `0.00005` for `5e-05`, `10000000000000000.0` for
    /// `1e+16`. What ``decimal(_:)`` reads, so a step or a curve written this way parses back.
    static func plain(_ x: Double) -> String {
        let text = x.description
        guard let e = text.firstIndex(of: "e") else { return text }
        let exponent = Int(text[text.index(after: e)...]) ?? 0
        let parts = text[..<e].drop { $0 == "-" }.split(separator: ".", omittingEmptySubsequences: false)
        let integral = parts[0], digits = Array(integral + (parts.count > 1 ? parts[1] : ""))
        // Digits before the point once the exponent has moved it.
        let point = integral.count + exponent
        let whole = point <= 0 ? "0" : String(digits.prefix(point)) + String(repeating: "0", count: max(0, point - digits.count))
        let fraction = String(repeating: "0", count: max(0, -point)) + String(digits.dropFirst(max(0, point)))
        let trimmed = String(fraction.reversed().drop { $0 == "0" }.reversed())
        return (x < 0 ? "-" : "") + whole + "." + (trimmed.isEmpty ? "0" : trimmed)
    }

    private static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }
}
