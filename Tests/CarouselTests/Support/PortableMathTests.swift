@testable import Carousel
import CarouselTestSupport
import Foundation
import Testing

/// `exp`, `sin` and `cos` from IEEE arithmetic alone agree with the platform's libm to
/// within 1 unit in the last place (exp) and 3 (sin and cos, away from their zeros), so a spring moves as it did with libm's, now with the
/// same bits on every platform.
struct PortableMathTests {
    /// A double in 0..<1 from the generator's top 53 bits.
    static func unit(_ random: inout SeededRandom) -> Double { Double(random.next() >> 11) / Double(1 << 53) }

    /// How many representable doubles lie between `a` and `b` (0 when equal).
    static func ulps(_ a: Double, _ b: Double) -> UInt64 {
        if a == b { return 0 }
        func ordered(_ x: Double) -> Int64 {
            let bits = Int64(bitPattern: x.bitPattern)
            return bits < 0 ? Int64.min &- bits : bits
        }
        let d = ordered(a) &- ordered(b)
        return d.magnitude
    }

    @Test func expAgreesWithLibm() {
        var random = SeededRandom(seed: 7)
        var worst: UInt64 = 0
        for i in 0..<200_000 {
            // Mostly where a spring's decay lies, and across the whole range now and then.
            let x = i % 10 == 0 ? Self.unit(&random) * 1_500 - 750 : Self.unit(&random) * 60 - 50
            worst = max(worst, Self.ulps(PortableMath.exp(x), Foundation.exp(x)))
        }
        #expect(worst <= 1)
        #expect(PortableMath.exp(0) == 1 && Self.ulps(PortableMath.exp(1), Foundation.exp(1)) <= 1)
        #expect(PortableMath.exp(710) == .infinity && PortableMath.exp(-746) == 0 && PortableMath.exp(.nan).isNaN)
        #expect(PortableMath.exp(-.infinity) == 0 && PortableMath.exp(.infinity) == .infinity)
        // Results below the normal range round once.
        #expect(Self.ulps(PortableMath.exp(-740), Foundation.exp(-740)) <= 1)
    }

    @Test func sinAndCosAgreeWithLibm() {
        var random = SeededRandom(seed: 11)
        var worst: UInt64 = 0
        for i in 0..<200_000 {
            let x = i % 10 == 0 ? Self.unit(&random) * 2_000_000 - 1_000_000 : Self.unit(&random) * 200 - 100
            let (s, c) = PortableMath.sinCos(x)
            // Near a zero of the function an ulp of the result is far finer than one of x;
            // there the difference is judged against the argument's own precision.
            let slack = x.ulp * 4
            #expect(Self.ulps(s, Foundation.sin(x)) <= 3 || abs(s - Foundation.sin(x)) <= slack, "sin \(x)")
            #expect(Self.ulps(c, Foundation.cos(x)) <= 3 || abs(c - Foundation.cos(x)) <= slack, "cos \(x)")
            if abs(Foundation.sin(x)) > 0.01 && abs(Foundation.cos(x)) > 0.01 {
                worst = max(worst, Self.ulps(s, Foundation.sin(x)), Self.ulps(c, Foundation.cos(x)))
            }
        }
        #expect(worst <= 3)
        #expect(PortableMath.sinCos(0) == (0, 1))
        #expect(PortableMath.sinCos(-0.0).sin.sign == .minus && PortableMath.sinCos(-0.0).cos == 1)
        #expect(PortableMath.sinCos(.infinity).sin.isNaN && PortableMath.sinCos(.nan).cos.isNaN)
        // Past every accurate reduction the results stay sines and cosines, so a spring long
        // past its motion stays at rest rather than 0 x infinity.
        for x in [1e20, -1e31, 1e300, -Double.greatestFiniteMagnitude, 1e9 + 0.5] {
            let (s, c) = PortableMath.sinCos(x)
            #expect(abs(s) <= 1 && abs(c) <= 1, "\(x)")
        }
        #expect(Spring(damping: 0.01, response: 0.01).displacement(1e30) == 1)
    }

    /// The spring's curve is the formula's, through the portable functions.
    @Test func springMovesAsWithLibm() {
        for (damping, response) in [(0.5, 0.3), (0.8, 0.6), (1.0, 0.4), (1.5, 0.5), (0.01, 100)] {
            let spring = Spring(damping: damping, response: response)
            for step in 0...100 {
                let t = Double(step) / 100 * 0.6
                let omega = 2 * Double.pi / response, z = damping
                let libm: Double
                if z < 1 {
                    let wd = omega * (1 - z * z).squareRoot()
                    libm = 1 - Foundation.exp(-z * omega * t) * (Foundation.cos(wd * t) + z * omega / wd * Foundation.sin(wd * t))
                } else if z == 1 {
                    libm = 1 - Foundation.exp(-omega * t) * (1 + omega * t)
                } else {
                    let r = (z * z - 1).squareRoot()
                    let r1 = -omega * (z - r), r2 = -omega * (z + r)
                    libm = 1 - (r2 * Foundation.exp(r1 * t) - r1 * Foundation.exp(r2 * t)) / (r2 - r1)
                }
                #expect(abs(spring.displacement(t) - libm) < 1e-14, "spring(\(damping),\(response)) at \(t)")
            }
        }
    }
}
