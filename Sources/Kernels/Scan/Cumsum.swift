/// CUMSUM: running sums along one axis. The input is viewed as `[outer, axisSize, inner]`.
public enum Cumsum {
    /// Writes the cumulative sum of `input` along the middle axis into `output` (which may
    /// alias `input`).
    /// - Parameters:
    ///   - exclusive: when true each element excludes itself (the first sum is zero).
    ///   - reverse: when true sums run from the end of the axis towards its start.
    public static func run<T: WrappingAddable>(input: UnsafePointer<T>, output: UnsafeMutablePointer<T>,
                                                   outer: Int, axisSize: Int, inner: Int,
                                                   exclusive: Bool, reverse: Bool) {
        for o in 0..<outer {
            for i in 0..<inner {
                var sum = T.additiveZero
                for step in 0..<axisSize {
                    let a = reverse ? axisSize - 1 - step : step
                    let offset = (o * axisSize + a) * inner + i
                    let x = input[offset]
                    if exclusive {
                        output[offset] = sum
                        sum = sum.addingWrapped(x)
                    } else {
                        sum = sum.addingWrapped(x)
                        output[offset] = sum
                    }
                }
            }
        }
    }
}
