extension Elementwise {
    /// Float comparison into a byte tensor of 0/1 (NaN compares as IEEE: unequal, unordered).
    public static func compare(_ op: ComparisonOperator, lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>,
                               plan: BroadcastPlan, output: UnsafeMutablePointer<UInt8>) {
        compareAny(op, lhs, rhs, plan, output)
    }

    /// Int32 comparison into a byte tensor of 0/1.
    public static func compare(_ op: ComparisonOperator, lhs: UnsafePointer<Int32>, rhs: UnsafePointer<Int32>,
                               plan: BroadcastPlan, output: UnsafeMutablePointer<UInt8>) {
        compareAny(op, lhs, rhs, plan, output)
    }

    /// Int64 comparison into a byte tensor of 0/1.
    public static func compare(_ op: ComparisonOperator, lhs: UnsafePointer<Int64>, rhs: UnsafePointer<Int64>,
                               plan: BroadcastPlan, output: UnsafeMutablePointer<UInt8>) {
        compareAny(op, lhs, rhs, plan, output)
    }

    /// UInt8 comparison (raw values, e.g. booleans or equally quantised tensors) into 0/1 bytes.
    public static func compare(_ op: ComparisonOperator, lhs: UnsafePointer<UInt8>, rhs: UnsafePointer<UInt8>,
                               plan: BroadcastPlan, output: UnsafeMutablePointer<UInt8>) {
        compareAny(op, lhs, rhs, plan, output)
    }

    @inline(__always)
    static func compareAny<T: Comparable>(_ op: ComparisonOperator, _ lhs: UnsafePointer<T>, _ rhs: UnsafePointer<T>,
                                          _ plan: BroadcastPlan, _ output: UnsafeMutablePointer<UInt8>) {
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
