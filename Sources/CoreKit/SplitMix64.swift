/// A tiny seeded generator (SplitMix64): randomised tests, benchmark inputs, simulated
/// latency and scenarios repeat exactly; it also matches `shared/bench/DIFF_INPUTS.md` bit for bit.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `next() % bound`, the draw the shared benchmark inputs are defined with.
    public mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
