/// A seeded linear congruential generator (Knuth's MMIX constants), so a test's "random"
/// pictures, palettes and colours are the same on every run.
public struct SeededRandom {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// The next state, all 64 bits; the high bits are the better ones.
    public mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }

    /// The next state's top byte.
    public mutating func byte() -> UInt8 {
        UInt8(truncatingIfNeeded: next() >> 56)
    }
}
