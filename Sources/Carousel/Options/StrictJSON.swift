/// A strict JSON reader (RFC 8259) for config files: no trailing commas, no comments,
/// no duplicate keys, at most 64 levels deep. Numbers are kept as written, whatever their
/// size: a number out of an option's range is the option's error, not the file's.
///
/// Foundation's decoders accept some of these silently (a trailing comma; the first of
/// two equal keys); a config file should say exactly one thing, or be refused with
/// the place of the problem.
enum StrictJSON {
    /// Why a text is not strict JSON, and where.
    struct Failure: Error, Equatable {
        /// What is wrong.
        let reason: String
        /// 1-based line and column of the problem.
        let line: Int, column: Int
        /// A key given twice in the top object (an option given twice), when that is the problem.
        let duplicateKey: String?

        var description: String { "\(reason) at line \(line), column \(column)" }
    }

    /// Parses `bytes` as one JSON value.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.atEnd else { throw reader.fail("unexpected text after the JSON value") }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0

        var atEnd: Bool { i >= bytes.count }

        func fail(_ reason: String, key: String? = nil) -> Failure {
            var line = 1, column = 1
            for b in bytes[..<min(i, bytes.count)] {
                if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
            }
            return Failure(reason: reason, line: line, column: column, duplicateKey: key)
        }

        mutating func skipSpace() {
            while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        }

        mutating func expect(_ literal: String, _ value: JSONValue) throws(Failure) -> JSONValue {
            let utf8 = Array(literal.utf8)
            guard bytes.count - i >= utf8.count, Array(bytes[i..<(i + utf8.count)]) == utf8 else {
                throw fail("expected a JSON value")
            }
            i += utf8.count
            return value
        }

        mutating func value(depth: Int) throws(Failure) -> JSONValue {
            guard depth < 64 else { throw fail("nested more than 64 levels deep") }
            guard i < bytes.count else { throw fail("unexpected end of the file") }
            switch bytes[i] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw fail("expected a JSON value")
            }
        }

        mutating func object(depth: Int) throws(Failure) -> JSONValue {
            i += 1
            var members: [String: JSONValue] = [:]
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                i += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                    throw fail(members.isEmpty ? "expected a key in quotes" : "expected a key in quotes after the comma (no trailing commas)")
                }
                let keyStart = i
                let key = try string()
                guard members[key] == nil else {
                    i = keyStart
                    // Only the top object's keys are options; a key twice deeper is bad JSON.
                    throw fail("key \"\(key)\" given twice", key: depth == 0 ? key : nil)
                }
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':' after the key") }
                i += 1
                skipSpace()
                members[key] = try value(depth: depth + 1)
                skipSpace()
                guard i < bytes.count else { throw fail("unexpected end of the file; expected ',' or '}'") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                throw fail("expected ',' or '}'")
            }
        }

        mutating func array(depth: Int) throws(Failure) -> JSONValue {
            i += 1
            var items: [JSONValue] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                i += 1
                return .array(items)
            }
            while true {
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { throw fail("expected a value after the comma (no trailing commas)") }
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw fail("unexpected end of the file; expected ',' or ']'") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                throw fail("expected ',' or ']'")
            }
        }

        mutating func string() throws(Failure) -> String {
            i += 1
            var out: [UInt8] = []
            while true {
                guard i < bytes.count else { throw fail("unterminated string") }
                let b = bytes[i]
                if b == UInt8(ascii: "\"") { i += 1; break }
                if b < 0x20 { throw fail("a control character in a string (write it as an escape, e.g. \\n)") }
                if b != UInt8(ascii: "\\") {
                    out.append(b)
                    i += 1
                    continue
                }
                guard i + 1 < bytes.count else { throw fail("unterminated string") }
                let e = bytes[i + 1]
                i += 2
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                            throw fail("a lone surrogate in \\u escape")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate in \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw fail("a lone surrogate in \\u escape")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail("an invalid \\u escape") }
                    out += Array(String(Character(unicode)).utf8)
                default:
                    i -= 1
                    throw fail("an invalid escape in a string")
                }
            }
            guard let text = String(utf8: out) else { throw fail("a string that is not UTF-8") }
            return text
        }

        mutating func hex4() throws(Failure) -> UInt32 {
            guard i + 4 <= bytes.count else { throw fail("an invalid \\u escape") }
            var v: UInt32 = 0
            for b in bytes[i..<(i + 4)] {
                v <<= 4
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): v |= UInt32(b - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): v |= UInt32(b - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): v |= UInt32(b - UInt8(ascii: "A") + 10)
                default: throw fail("an invalid \\u escape")
                }
            }
            i += 4
            return v
        }

        mutating func number() throws(Failure) -> JSONValue {
            let start = i
            func digits() -> Int {
                let from = i
                while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
                return i - from
            }
            if bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < bytes.count else { throw fail("an invalid number") }
            if bytes[i] == UInt8(ascii: "0") {
                i += 1
            } else if digits() == 0 {
                throw fail("an invalid number")
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard digits() > 0 else { throw fail("an invalid number") }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { throw fail("an invalid number") }
            }
            return .number(String(decoding: bytes[start..<i], as: UTF8.self))
        }
    }
}
