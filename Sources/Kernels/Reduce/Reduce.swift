/// Reductions over any set of axes (MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD,
/// REDUCE_ANY, REDUCE_ALL).
public enum Reduce {
    /// Float reduction of `input` as planned, writing `plan.outputCount` values.
    public static func apply(_ op: ReduceOperator, input: UnsafePointer<Float>, plan: ReducePlan,
                             output: UnsafeMutablePointer<Float>) {
        switch op {
        case .sum, .mean:
            fold(input, plan, output, initial: 0) { $0 + $1 }
            if op == .mean {
                let n = Float(plan.reducedCount)
                for i in 0..<plan.outputCount { output[i] = plan.reducedCount == 0 ? 0 : output[i] / n }
            }
        case .max: fold(input, plan, output, initial: -Float.greatestFiniteMagnitude) { $1 > $0 ? $1 : $0 }
        case .min: fold(input, plan, output, initial: Float.greatestFiniteMagnitude) { $1 < $0 ? $1 : $0 }
        case .product: fold(input, plan, output, initial: 1) { $0 * $1 }
        }
    }

    /// Int32 reduction (sums and products wrap).
    public static func apply(_ op: ReduceOperator, input: UnsafePointer<Int32>, plan: ReducePlan,
                             output: UnsafeMutablePointer<Int32>) {
        integerApply(op, input, plan, output)
    }

    /// Int64 reduction (sums and products wrap).
    public static func apply(_ op: ReduceOperator, input: UnsafePointer<Int64>, plan: ReducePlan,
                             output: UnsafeMutablePointer<Int64>) {
        integerApply(op, input, plan, output)
    }

    @inline(__always)
    static func integerApply<T: FixedWidthInteger & SignedInteger>(_ op: ReduceOperator, _ input: UnsafePointer<T>,
                                                                   _ plan: ReducePlan, _ output: UnsafeMutablePointer<T>) {
        switch op {
        case .sum, .mean:
            fold(input, plan, output, initial: 0) { $0 &+ $1 }
            if op == .mean {
                let n = T(clamping: plan.reducedCount)
                for i in 0..<plan.outputCount { output[i] = n == 0 ? 0 : output[i] / n }
            }
        case .max: fold(input, plan, output, initial: T.min) { Swift.max($0, $1) }
        case .min: fold(input, plan, output, initial: T.max) { Swift.min($0, $1) }
        case .product: fold(input, plan, output, initial: 1) { $0 &* $1 }
        }
    }

    /// REDUCE_ANY over byte booleans: 1 if any reduced element is non-zero.
    public static func any(input: UnsafePointer<UInt8>, plan: ReducePlan, output: UnsafeMutablePointer<UInt8>) {
        fold(input, plan, output, initial: 0) { ($0 != 0 || $1 != 0) ? 1 : 0 }
    }

    /// REDUCE_ALL over byte booleans: 1 if every reduced element is non-zero (1 when empty).
    public static func all(input: UnsafePointer<UInt8>, plan: ReducePlan, output: UnsafeMutablePointer<UInt8>) {
        fold(input, plan, output, initial: 1) { ($0 != 0 && $1 != 0) ? 1 : 0 }
    }

    @inline(__always)
    static func fold<T>(_ input: UnsafePointer<T>, _ plan: ReducePlan, _ output: UnsafeMutablePointer<T>,
                        initial: T, _ combine: (T, T) -> T) {
        output.update(repeating: initial, count: plan.outputCount)
        plan.forEachElement { i, o in output[o] = combine(output[o], input[i]) }
    }
}
