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

    private static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }
}
