/// ARG_MAX and ARG_MIN along one axis. The input is viewed as `[outer, axisSize, inner]`; the
/// output, `[outer, inner]`, holds the index of the first extreme value (ties keep the earlier
/// index; comparisons are IEEE, as in TFLite, so a NaN is never chosen over a number that
/// precedes it), or 0 when the axis is empty.
public enum ArgMinMax {
    /// ARG_MAX.
    @inlinable
    public static func argMax<T: Comparable, Index: FixedWidthInteger>(
        input: UnsafePointer<T>, outer: Int, axisSize: Int, inner: Int, output: UnsafeMutablePointer<Index>) {
        select(input, outer, axisSize, inner, output) { $0 > $1 }
    }

    /// ARG_MIN.
    @inlinable
    public static func argMin<T: Comparable, Index: FixedWidthInteger>(
        input: UnsafePointer<T>, outer: Int, axisSize: Int, inner: Int, output: UnsafeMutablePointer<Index>) {
        select(input, outer, axisSize, inner, output) { $0 < $1 }
    }

    @inlinable
    static func select<T: Comparable, Index: FixedWidthInteger>(
        _ input: UnsafePointer<T>, _ outer: Int, _ axisSize: Int, _ inner: Int,
        _ output: UnsafeMutablePointer<Index>, _ better: (T, T) -> Bool) {
        for o in 0..<outer {
            for j in 0..<inner {
                var best = 0
                if axisSize > 0 {
                    var value = input[o * axisSize * inner + j]
                    for a in 1..<Swift.max(1, axisSize) {
                        let candidate = input[(o * axisSize + a) * inner + j]
                        if better(candidate, value) { value = candidate; best = a }
                    }
                }
                output[o * inner + j] = Index(truncatingIfNeeded: best)
            }
        }
    }
}
