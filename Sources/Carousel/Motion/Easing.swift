#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A timing curve E mapping progress 0...1 of a move to progress 0...1 of its distance.
///
/// E(0) = 0 and E(1) = 1 exactly for every curve.
public enum Easing: Hashable, Sendable, CustomStringConvertible {
    /// Constant speed.
    case linear
    /// A CSS/Core Animation cubic Bézier through (0,0), (x1,y1), (x2,y2), (1,1).
    case cubicBezier(Double, Double, Double, Double)
    /// A damped spring (damping ratio, response in seconds), as SwiftUI's `.spring(response:dampingFraction:)`.
    case spring(damping: Double, response: Double)

    /// CSS `ease`.
    public static let ease = Easing.cubicBezier(0.25, 0.1, 0.25, 1)
    /// CSS `ease-in`.
    public static let easeIn = Easing.cubicBezier(0.42, 0, 1, 1)
    /// CSS `ease-out`.
    public static let easeOut = Easing.cubicBezier(0, 0, 0.58, 1)
    /// CSS `ease-in-out`, the default move.
    public static let easeInOut = Easing.cubicBezier(0.42, 0, 0.58, 1)

    /// The names accepted besides `cubic-bezier(...)` and `spring(...)`.
    public static let names = ["linear", "ease", "ease-in", "ease-out", "ease-in-out"]

    /// What `--help` and errors list as the accepted forms.
    public static let accepted = "linear, ease, ease-in, ease-out, ease-in-out, cubic-bezier(x1,y1,x2,y2) (x in 0...1, y in -100...100) or spring(DAMPING,RESPONSE) (each 0.01...100)"

    /// The `y` control values `cubic-bezier` accepts: overshoot, within reason.
    public static let bezierYRange = -100.0...100.0
    /// The damping ratios and responses (seconds) `spring` accepts.
    public static let springRange = 0.01...100.0

    /// Parses a name, `cubic-bezier(x1,y1,x2,y2)` (x1 and x2 in 0...1, y1 and y2 in -100...100)
    /// or `spring(DAMPING,RESPONSE)` (both 0.01...100): every accepted curve gives finite values.
    public init?(_ text: String) {
        let t = text.trimmingSpaces.lowercased()
        switch t {
        case "linear": self = .linear
        case "ease": self = .ease
        case "ease-in": self = .easeIn
        case "ease-out": self = .easeOut
        case "ease-in-out": self = .easeInOut
        default:
            let curve: Easing
            if let args = Easing.arguments(t, function: "cubic-bezier"), args.count == 4 {
                curve = .cubicBezier(args[0], args[1], args[2], args[3])
            } else if let args = Easing.arguments(t, function: "spring"), args.count == 2 {
                curve = .spring(damping: args[0], response: args[1])
            } else {
                return nil
            }
            guard curve.refusal == nil else { return nil }
            self = curve
        }
    }

    /// Why this curve's parameters lie outside what ``init(_:)`` accepts, or `nil`: a curve
    /// made in Swift (`.spring(damping: 0, response: 0)`) is checked as text is, since only
    /// the accepted ranges give finite values.
    public var refusal: String? {
        switch self {
        case .linear:
            return nil
        case let .cubicBezier(x1, y1, x2, y2):
            return (0...1).contains(x1) && (0...1).contains(x2) && Easing.bezierYRange.contains(y1)
                && Easing.bezierYRange.contains(y2) ? nil
                : "cubic-bezier takes x1 and x2 in 0...1 and y1 and y2 in -100...100, got \(self)"
        case let .spring(damping, response):
            return Easing.springRange.contains(damping) && Easing.springRange.contains(response) ? nil
                : "spring takes DAMPING and RESPONSE in 0.01...100, got \(self)"
        }
    }

    private static func arguments(_ text: String, function: String) -> [Double]? {
        guard text.hasPrefix(function + "("), text.hasSuffix(")") else { return nil }
        let inner = text.dropFirst(function.count + 1).dropLast()
        let parts = inner.split(separator: ",", omittingEmptySubsequences: false)
        let values = parts.compactMap { Numerals.decimal($0.trimmingSpaces) }.filter(\.isFinite)
        return values.count == parts.count ? values : nil
    }

    /// The name the option and scripts take, e.g. `ease-in-out` or `cubic-bezier(0.1,0.2,0.3,1.0)`.
    public var description: String {
        switch self {
        case .linear: return "linear"
        case .spring(let d, let r): return "spring(\(Numerals.plain(d)),\(Numerals.plain(r)))"
        case let .cubicBezier(x1, y1, x2, y2):
            switch self {
            case .ease: return "ease"
            case .easeIn: return "ease-in"
            case .easeOut: return "ease-out"
            case .easeInOut: return "ease-in-out"
            default: return "cubic-bezier(\([x1, y1, x2, y2].map(Numerals.plain).joined(separator: ",")))"
            }
        }
    }

    /// E(u) for progress `u` of a move lasting `duration` seconds (the spring needs real time).
    public func value(at u: Double, duration: Double) -> Double {
        if u <= 0 { return 0 }
        if u >= 1 { return 1 }
        switch self {
        case .linear:
            return u
        case let .cubicBezier(x1, y1, x2, y2):
            return CubicBezier(x1: x1, y1: y1, x2: x2, y2: y2).y(atX: u)
        case let .spring(damping, response):
            return Spring(damping: damping, response: response).eased(u, duration: duration)
        }
    }
}

extension Easing {
    /// E'(u), the slope of the curve at progress `u` (distance per unit of progress),
    /// for a move lasting `duration` seconds; one-sided at the ends.
    ///
    /// A move's velocity is `distance * E'(u) / duration`; a finger released at the
    /// end of an eased drag leaves with `E'(1)`: 1 for `linear`, 0 for `ease-out`.
    public func slope(at u: Double, duration: Double) -> Double {
        let u = min(1, max(0, u))
        switch self {
        case .linear:
            return 1
        case let .cubicBezier(x1, y1, x2, y2):
            return CubicBezier(x1: x1, y1: y1, x2: x2, y2: y2).slope(atX: u)
        case .spring:
            let h = 1e-6
            let a = max(0, u - h), b = min(1, u + h)
            return (value(at: b, duration: duration) - value(at: a, duration: duration)) / (b - a)
        }
    }
}

/// A unit cubic Bézier solved for y at a given x: Newton's method, falling back to bisection.
struct CubicBezier {
    let x1, y1, x2, y2: Double

    func y(atX x: Double) -> Double {
        sample(y1, y2, solve(x))
    }

    /// dy/dx at x: (dy/ds) / (dx/ds) at the parameter s of x, infinite slopes capped at 1e6.
    ///
    /// At the ends the tangent is taken exactly from the control points: towards (x1, y1) at
    /// the start, from (x2, y2) at the end. Where that control point sits on the end itself,
    /// the curve leaves along the other one (`ease-in`, (0.42, 0, 1, 1), ends with slope
    /// 1 / 0.58), and where both do, along the chord (slope 1). So `ease` and `ease-out`,
    /// whose y2 is 1, end with a slope of exactly 0, which the finger's release velocity
    /// needs (spec 3b: v = 0 when E'(1) = 0); the polynomial evaluated at s = 1 can leave a
    /// rounding error there, a tiny velocity that picks the page behind.
    func slope(atX x: Double) -> Double {
        if x <= 0 || x >= 1 {
            let tangents = x <= 0 ? [(x1, y1), (x2, y2)] : [(1 - x2, 1 - y2), (1 - x1, 1 - y1)]
            let (dx, dy) = tangents.first { $0.0 != 0 || $0.1 != 0 } ?? (1, 1)   // both on the end: the chord
            return CubicBezier.ratio(dy, dx)
        }
        let s = solve(x)
        return CubicBezier.ratio(derivative(y1, y2, s), derivative(x1, x2, s))
    }

    /// dy / dx, capped at ±1e6 (a vertical tangent); 0 where both vanish.
    private static func ratio(_ dy: Double, _ dx: Double) -> Double {
        if abs(dx) < 1e-12 { return abs(dy) < 1e-12 ? 0 : (dy > 0 ? 1e6 : -1e6) }
        return max(-1e6, min(1e6, dy / dx))
    }

    /// The curve parameter s with x(s) = x, to 1e-12.
    func solve(_ x: Double) -> Double {
        var s = x
        for _ in 0..<8 {
            let error = sample(x1, x2, s) - x
            if abs(error) < 1e-12 { return s }
            let slope = derivative(x1, x2, s)
            if abs(slope) < 1e-9 { break }
            s -= error / slope
            if s < 0 || s > 1 { break }
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<100 {
            let value = sample(x1, x2, s)
            if abs(value - x) < 1e-12 { return s }
            if value < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }

    private func sample(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
        let c = 3 * p1, b = 3 * (p2 - p1) - c, a = 1 - c - b
        return ((a * s + b) * s + c) * s
    }

    private func derivative(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
        let c = 3 * p1, b = 3 * (p2 - p1) - c, a = 1 - c - b
        return (3 * a * s + 2 * b) * s + c
    }
}

/// A damped harmonic oscillator from 0 to 1 with zero initial velocity.
///
/// `response` is the undamped period in seconds (stiffness `(2π / response)²`,
/// unit mass), `damping` the damping ratio: below 1 it overshoots, 1 is critical.
struct Spring {
    let damping: Double
    let response: Double

    /// Displacement toward the target at `t` seconds, 0 at t = 0 and tending to 1.
    func displacement(_ t: Double) -> Double {
        let omega = 2 * Double.pi / response
        let z = damping
        // `PortableMath`, not libm: the same positions, to the bit, on every platform.
        let exp = PortableMath.exp
        if z < 1 {
            let wd = omega * (1 - z * z).squareRoot()
            let (sine, cosine) = PortableMath.sinCos(wd * t)
            return 1 - exp(-z * omega * t) * (cosine + z * omega / wd * sine)
        } else if z == 1 {
            return 1 - exp(-omega * t) * (1 + omega * t)
        } else {
            let r = (z * z - 1).squareRoot()
            let r1 = -omega * (z - r), r2 = -omega * (z + r)
            return 1 - (r2 * exp(r1 * t) - r1 * exp(r2 * t)) / (r2 - r1)
        }
    }

    /// The spring over a move of `duration` seconds, ending exactly on the target.
    ///
    /// Whatever displacement is left at the end of the move (none once the spring
    /// has settled) is removed with a smoothstep weight, so E(1) = 1 with no jump.
    func eased(_ u: Double, duration: Double) -> Double {
        let residual = 1 - displacement(duration)
        let weight = u * u * (3 - 2 * u)
        return displacement(u * duration) + residual * weight
    }
}
