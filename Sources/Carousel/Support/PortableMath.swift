/// `exp`, `sin` and `cos` from IEEE 754 arithmetic alone (+, −, ×, ÷ and exact
/// operations), so that what they feed gives the same bits on every platform.
///
/// The platform's libm (glibc on Linux, Apple's on macOS) may round these functions
/// differently in the last place, and a spring easing's positions, rounded to pixels,
/// would then differ now and then between a Mac and a Linux CI runner. These agree with
/// glibc's to within 1 unit in the last place (exp) and 3 (sin and cos, away from their
/// zeros), and with themselves everywhere.
enum PortableMath {
    /// e^x.
    static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.782712893384 { return .infinity }
        if x < -745.1332191019412 { return 0 }
        // x = k ln 2 + r with |r| <= ln 2 / 2; ln 2 in two parts, the first with trailing
        // zero bits so k times it is exact for every k in range (Cody and Waite).
        let k = (x * log2e).rounded()
        let r = (x - k * ln2High) - k * ln2Low
        // e^r by its Taylor series, to r^17 / 17! (below 1e-24 for |r| <= 0.35).
        var sum = 1.0
        for n in stride(from: 17, through: 1, by: -1) { sum = 1 + sum * r / Double(n) }
        // Times 2^k, in two steps so a result below the normal range rounds once.
        let half = Int(k) / 2
        return sum * Double(sign: .plus, exponent: half, significand: 1)
            * Double(sign: .plus, exponent: Int(k) - half, significand: 1)
    }

    /// sin x and cos x. Arguments past about 10^6 are reduced without extra precision, and
    /// past 10^9 first taken modulo the `Double` nearest 2π: the results stay in -1...1 and
    /// deterministic, not accurate. A spring takes such an argument only where its decay
    /// factor is 0.
    static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        guard x.isFinite else { return (.nan, .nan) }
        if x == 0 { return (x, 1) }  // -0 keeps its sign
        let x = abs(x) > 1e9 ? x.truncatingRemainder(dividingBy: 2 * .pi) : x
        // x = k π/2 + r with |r| <= π/4; π/2 in three parts (Cody and Waite).
        let k = (x * twoOverPi).rounded()
        let r = ((x - k * halfPi1) - k * halfPi2) - k * halfPi3
        let r2 = r * r
        // Taylor series to r^23 / 23! and r^22 / 22! (below 1e-24 for |r| <= π/4).
        var s = 1.0, c = 1.0
        for n in stride(from: 22, through: 2, by: -2) {
            s = 1 - s * r2 / Double(n * (n + 1))
            c = 1 - c * r2 / Double((n - 1) * n)
        }
        let sine = r * s
        switch k.truncatingRemainder(dividingBy: 4) {
        case 0: return (sine, c)
        case 1, -3: return (c, -sine)
        case 2, -2: return (-sine, -c)
        default: return (-c, sine)
        }
    }

    private static let log2e = 1.4426950408889634
    /// ln 2 to 32 bits, and the rest.
    private static let ln2High = 6.93147180369123816490e-01
    private static let ln2Low = 1.90821492927058770002e-10
    private static let twoOverPi = 6.36619772367581382433e-01
    /// π/2 to 33 bits, the next 33 bits, and the rest (fdlibm's pio2_1, pio2_2, pio2_3).
    private static let halfPi1 = 1.57079632673412561417e+00
    private static let halfPi2 = 6.07710050630396597660e-11
    private static let halfPi3 = 2.02226624871116645580e-21
}
