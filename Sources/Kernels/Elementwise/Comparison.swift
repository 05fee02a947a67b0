extension Elementwise {
    /// Comparison of float32, int32, int64 or uint8 (raw values: booleans or equally quantised
    /// tensors) into a byte tensor of 0/1. Float NaN compares as IEEE: unequal, unordered.
    @_specialize(exported: true, where T == Float)
    @_specialize(exported: true, where T == Int32)
    @_specialize(exported: true, where T == Int64)
    @_specialize(exported: true, where T == UInt8)
    public static func compare<T: Comparable>(_ op: ComparisonOperator, lhs: UnsafePointer<T>, rhs: UnsafePointer<T>,
                                              plan: BroadcastPlan, output: UnsafeMutablePointer<UInt8>) {
        switch op {
        case .equal: plan.apply(lhs, rhs, output) { $0 == $1 ? 1 : 0 }
        case .notEqual: plan.apply(lhs, rhs, output) { $0 != $1 ? 1 : 0 }
        case .less: plan.apply(lhs, rhs, output) { $0 < $1 ? 1 : 0 }
        case .lessEqual: plan.apply(lhs, rhs, output) { $0 <= $1 ? 1 : 0 }
        case .greater: plan.apply(lhs, rhs, output) { $0 > $1 ? 1 : 0 }
        case .greaterEqual: plan.apply(lhs, rhs, output) { $0 >= $1 ? 1 : 0 }
        }
    }

    /// LOGICAL_AND / LOGICAL_OR over byte booleans, writing 0/1.
    public static func logical(_ op: LogicalOperator, lhs: UnsafePointer<UInt8>, rhs: UnsafePointer<UInt8>,
                               plan: BroadcastPlan, output: UnsafeMutablePointer<UInt8>) {
        switch op {
        case .and: plan.apply(lhs, rhs, output) { ($0 != 0 && $1 != 0) ? 1 : 0 }
        case .or: plan.apply(lhs, rhs, output) { ($0 != 0 || $1 != 0) ? 1 : 0 }
        }
    }

    /// LOGICAL_NOT over `count` byte booleans, writing 0/1.
    public static func logicalNot(input: UnsafePointer<UInt8>, output: UnsafeMutablePointer<UInt8>, count: Int) {
        for i in 0..<count { output[i] = input[i] == 0 ? 1 : 0 }
    }
}
