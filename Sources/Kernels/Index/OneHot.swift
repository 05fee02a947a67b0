/// ONE_HOT: expands integer indices into vectors of `depth` values, `on` at the index and
/// `off` elsewhere. Indices outside `0..<depth` give an all-`off` vector, as in TFLite.
public enum OneHot {
    /// The indices are viewed as `[outer, inner]` and the output as `[outer, depth, inner]`
    /// (the new axis sits between them).
    public static func run<T, Index: FixedWidthInteger>(indices: UnsafePointer<Index>, outer: Int, depth: Int, inner: Int,
                                                        on: T, off: T, output: UnsafeMutablePointer<T>) {
        for o in 0..<outer {
            for d in 0..<depth {
                let row = output + (o * depth + d) * inner
                for i in 0..<inner {
                    row[i] = Int(indices[o * inner + i]) == d ? on : off
                }
            }
        }
    }
}
