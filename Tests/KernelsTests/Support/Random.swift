/// A small deterministic generator (SplitMix64) so every random test case is reproducible.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func floats(_ count: Int, in range: ClosedRange<Float> = -1...1) -> [Float] {
        (0..<count).map { _ in Float.random(in: range, using: &self) }
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
}

/// Largest absolute elementwise difference of two equally long arrays.
func maxAbsDifference(_ a: [Float], _ b: [Float]) -> Float {
    precondition(a.count == b.count)
    var m: Float = 0
    for i in a.indices { m = max(m, abs(a[i] - b[i])) }
    return m
}

/// A tolerance for sums of `length` products of values in [-1, 1]: float rounding grows with
/// the reduction length, and reordered sums differ by a few ulps per term.
func reductionTolerance(_ length: Int) -> Float {
    Float(max(length, 1)) * 4 * Float.ulpOfOne + 1e-6
}
