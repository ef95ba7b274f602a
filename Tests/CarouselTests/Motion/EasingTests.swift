import Carousel
import CarouselTestSupport
import Testing

struct EasingTests {
    static let samples = [0.1, 0.25, 0.5, 0.75, 0.9]

    @Test(arguments: [
        ("ease", [0.0948, 0.4085, 0.8024, 0.9605, 0.9943]),
        ("ease-in-out", [0.0197, 0.1292, 0.5000, 0.8708, 0.9803]),
        ("ease-in", [0.0170, 0.0935, 0.3154, 0.6219, 0.8394]),
        ("ease-out", [0.1606, 0.3781, 0.6846, 0.9065, 0.9830]),
        ("linear", [0.1, 0.25, 0.5, 0.75, 0.9]),
    ])
    func goldenValues(_ name: String, _ expected: [Double]) throws {
        let easing = try #require(Easing(name))
        for (u, e) in zip(Self.samples, expected) {
            #expect(abs(easing.value(at: u, duration: 0.3) - e) < 1e-4, "\(name) at \(u)")
        }
    }

    @Test(arguments: ["linear", "ease", "ease-in", "ease-out", "ease-in-out", "cubic-bezier(0.1,0.7,1,0.1)",
                      "cubic-bezier(0, 1.5, 1, -0.5)", "spring(0.5,0.4)", "spring(1,0.3)", "spring(2, 0.5)", "spring(0.2,2)"])
    func endsExact(_ name: String) throws {
        let easing = try #require(Easing(name))
        for duration in [0.1, 0.3, 1.0] {
            #expect(easing.value(at: 0, duration: duration) == 0)
            #expect(easing.value(at: 1, duration: duration) == 1)
        }
    }

    /// The solver inverts x(s) on steep and flat curves alike (Newton falling back to bisection).
    @Test func cubicBezierSolverIsAccurate() throws {
        let easing = try #require(Easing("cubic-bezier(0,1,0,1)"))
        var previous = 0.0
        for k in 1..<1000 {
            let v = easing.value(at: Double(k) / 1000, duration: 1)
            #expect(v >= previous - 1e-12, "monotone at \(k)")
            previous = v
        }
        let symmetric = try #require(Easing("cubic-bezier(0.42,0,0.58,1)"))
        for u in stride(from: 0.01, to: 1, by: 0.01) {
            #expect(abs(symmetric.value(at: u, duration: 1) + symmetric.value(at: 1 - u, duration: 1) - 1) < 1e-9)
        }
    }

    /// The end slopes come from the control points, exactly: y2 = 1 ends at rest (0, not a
    /// rounding error's tiny number), a control point on an end hands the tangent to the
    /// other one, and the interior agrees with a difference quotient.
    @Test(arguments: [
        ("ease", 1.0, 0.0), ("ease-out", 1.0, 0.0), ("ease-in-out", 1.0, 0.0), ("linear", 1.0, 1.0),
        ("ease-in", 1.0, 1 / 0.58), ("ease-in", 0.0, 0.0), ("ease-out", 0.0, 1 / 0.58), ("ease", 0.0, 0.4),
        ("cubic-bezier(0,0,1,1)", 1.0, 1.0), ("cubic-bezier(0,0,1,1)", 0.0, 1.0),
        ("cubic-bezier(1,1,1,1)", 1.0, 1.0), ("cubic-bezier(0.5,0,1,1)", 1.0, 2.0), ("cubic-bezier(0,0,0.5,0)", 0.0, 0.0),
    ])
    func endSlopes(_ name: String, _ u: Double, _ expected: Double) throws {
        let easing = try #require(Easing(name))
        let slope = easing.slope(at: u, duration: 1)
        #expect(abs(slope - expected) < 1e-12, "\(name) at \(u): \(slope)")
        if expected == 0 { #expect(slope == 0, "\(name) at \(u): exactly 0, got \(slope)") }
    }

    @Test(arguments: ["ease", "ease-in", "ease-out", "ease-in-out", "cubic-bezier(0.1,0.7,1,0.1)"])
    func interiorSlopeIsTheCurvesOwn(_ name: String) throws {
        let easing = try #require(Easing(name))
        for u in stride(from: 0.05, through: 0.95, by: 0.05) {
            let h = 1e-6
            let quotient = (easing.value(at: u + h, duration: 1) - easing.value(at: u - h, duration: 1)) / (2 * h)
            #expect(abs(easing.slope(at: u, duration: 1) - quotient) < 1e-4, "\(name) at \(u)")
        }
    }

    @Test func springOvershootsWhenUnderdamped() throws {
        let bouncy = try #require(Easing("spring(0.3,0.5)"))
        let peak = stride(from: 0.0, through: 1, by: 0.01).map { bouncy.value(at: $0, duration: 1.5) }.max() ?? 0
        #expect(peak > 1.05)
        let critical = try #require(Easing("spring(1,0.3)"))
        let values = stride(from: 0.0, through: 1, by: 0.01).map { critical.value(at: $0, duration: 1) }
        #expect(values.max() ?? 2 <= 1 + 1e-9)
    }

    @Test(arguments: ["", "bounce", "cubic-bezier(2,0,1,1)", "cubic-bezier(0,0,1)", "spring(0,1)", "spring(1)", "cubic-bezier(a,b,c,d)"])
    func rejectsBadNames(_ name: String) {
        #expect(Easing(name) == nil)
    }
}
