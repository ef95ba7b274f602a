/// One 8-bit RGBA colour with straight alpha.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    /// Red.
    public var r: UInt8
    /// Green.
    public var g: UInt8
    /// Blue.
    public var b: UInt8
    /// Alpha: 0 transparent, 255 opaque.
    public var a: UInt8

    /// Creates a colour from its components.
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Fully transparent black.
    public static let clear = RGBA(r: 0, g: 0, b: 0, a: 0)
    /// Opaque black.
    public static let black = RGBA(r: 0, g: 0, b: 0)
    /// Opaque white.
    public static let white = RGBA(r: 255, g: 255, b: 255)

    /// The same colour with alpha 255.
    public var opaque: RGBA { RGBA(r: r, g: g, b: b) }

    /// The colour as one 32-bit value, red in the lowest byte and alpha in the highest: a
    /// pixel's four bytes in memory, read as a little-endian word.
    var word: UInt32 { UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24 }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (case-insensitive); `nil` for anything else.
    public init?(hex text: String) {
        guard text.hasPrefix("#") else { return nil }
        let digits = text.dropFirst()
        guard digits.count == 6 || digits.count == 8,
              digits.allSatisfy(\.isHexDigit),
              let value = UInt32(digits, radix: 16) else { return nil }
        if digits.count == 6 {
            self.init(r: UInt8(value >> 16 & 0xFF), g: UInt8(value >> 8 & 0xFF), b: UInt8(value & 0xFF))
        } else {
            self.init(r: UInt8(value >> 24), g: UInt8(value >> 16 & 0xFF),
                      b: UInt8(value >> 8 & 0xFF), a: UInt8(value & 0xFF))
        }
    }

    /// `#RRGGBB` for opaque colours, `#RRGGBBAA` otherwise.
    public var description: String {
        func hex(_ v: UInt8) -> String {
            let s = String(v, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + hex(r) + hex(g) + hex(b) + (a == 255 ? "" : hex(a))
    }

    /// This colour drawn over `below` with coverage `coverage` (0...1), Porter-Duff "over".
    ///
    /// The effective alpha is `a * coverage`; results are rounded to nearest.
    public func over(_ below: RGBA, coverage: Double = 1) -> RGBA {
        let sa = Double(a) / 255 * coverage
        if sa >= 1 { return self }
        if sa <= 0 { return below }
        let da = Double(below.a) / 255
        let oa = sa + da * (1 - sa)
        func mix(_ s: UInt8, _ d: UInt8) -> UInt8 {
            let v = (Double(s) * sa + Double(d) * da * (1 - sa)) / oa
            return UInt8(min(255, max(0, v.rounded())))
        }
        return RGBA(r: mix(r, below.r), g: mix(g, below.g), b: mix(b, below.b),
                    a: UInt8(min(255, (oa * 255).rounded())))
    }
}
