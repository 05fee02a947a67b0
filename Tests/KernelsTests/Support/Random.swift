/// Largest absolute elementwise difference of two equally long arrays.
func maxAbsDifference(_ a: [Float], _ b: [Float]) -> Float {
    precondition(a.count == b.count)
    var m: Float = 0
    for i in a.indices {
        // A NaN on one side only is an infinite difference: `max` would skip it (a NaN is never
        // greater), and an unwritten output, NaN-filled by the tests, would pass.
        if a[i].isNaN != b[i].isNaN { return .infinity }
        if !a[i].isNaN { m = max(m, abs(a[i] - b[i])) }
    }
    return m
}

/// A tolerance for sums of `length` products of values in [-1, 1]: float rounding grows with
/// the reduction length, and reordered sums differ by a few ulps per term.
func reductionTolerance(_ length: Int) -> Float {
    Float(max(length, 1)) * 4 * Float.ulpOfOne + 1e-6
}
