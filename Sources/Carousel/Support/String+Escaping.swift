extension String {
    /// The text with every control character escaped (`\n`, `\t`, `\r`, others as `\u{1B}`),
    /// so a value quoted in a message cannot break its line or drive a terminal.
    ///
    /// The characters that reorder text written right to left (Unicode's Bidi_Control, such as
    /// U+202E) and the invisible zero-width space, word joiner and byte-order mark are escaped
    /// too: unescaped, a file name holding one would be shown otherwise than it is spelt.
    /// Zero-width joiners stay, as they spell words in several scripts and emoji.
    package var escapingControlCharacters: String {
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029
                || scalar.properties.isBidiControl || [0x200B, 0x2060, 0xFEFF].contains(scalar.value):
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension StringProtocol {
    /// The text with its first letter in lowercase where it starts a word in lowercase after
    /// it ("No space left" → "no space left"), as every message reads; a word in capitals
    /// throughout ("RFS specific error", "IDAT") is kept.
    package var sentenceInLowercase: String {
        guard let first = first, first.isUppercase, dropFirst().first?.isLowercase == true else { return String(self) }
        return first.lowercased() + dropFirst()
    }

    /// The text without the spaces and tabs at either end: the Unicode scalars of general
    /// category Zs and U+0009, what Foundation's `CharacterSet.whitespaces` holds. Line
    /// breaks and combining marks stay.
    package var trimmingSpaces: String {
        func isSpace(_ u: Unicode.Scalar) -> Bool { u == "\t" || u.properties.generalCategory == .spaceSeparator }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[first...last])
        return String(out)
    }

    /// A value as an error shows it: without the spaces around it (``trimmingSpaces``), or
    /// as typed where nothing is left of it, since `got ""` would hide the spaces given.
    package var shownTrimmed: String {
        let trimmed = trimmingSpaces
        return trimmed.isEmpty ? String(self) : trimmed
    }
}

extension String {
    /// `utf8` as text where it is UTF-8 (no overlong forms, no surrogates), else nil: what
    /// `String(validating:as:)` does, which Apple's platforms have only from macOS 15 and iOS 18.
    package init?<Bytes: Sequence<UInt8>>(utf8: Bytes) {
        var iterator = utf8.makeIterator()
        var decoder = Unicode.UTF8()
        var scalars = String.UnicodeScalarView()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: self = String(scalars); return
            case .error: return nil
            }
        }
    }
}
