/// The element-wise ops LiteRT 2.3 runs on bfloat16 tensors (FLOOR, NEG, LOGISTIC, TANH,
/// MAXIMUM, MINIMUM and the comparisons): each value is widened to float32 exactly, the float
/// kernel's arithmetic applied, and the result rounded to bfloat16 once.
extension Elementwise {
    /// A unary function of ``Activations/reference(_:input:output:count:)`` on bfloat16 values.
    public static func bfloat16Unary(_ f: UnaryFunction, input: UnsafePointer<UInt16>, output: UnsafeMutablePointer<UInt16>,
                                     count: Int) {
        let chunk = 256
        withUnsafeTemporaryAllocation(of: Float.self, capacity: chunk) { buffer in
            let floats = buffer.baseAddress!
            var start = 0
            while start < count {
                let n = min(chunk, count - start)
                for i in 0..<n { floats[i] = BFloat16.float(fromBits: input[start + i]) }
                Activations.reference(f, input: floats, output: floats, count: n)
                for i in 0..<n { output[start + i] = BFloat16.bits(from: floats[i]) }
                start += n
            }
        }
    }

    /// MAXIMUM or MINIMUM (as the float kernel picks) of broadcast bfloat16 operands.
    public static func bfloat16Binary(_ op: BinaryOperator, lhs: UnsafePointer<UInt16>, rhs: UnsafePointer<UInt16>,
                                      plan: BroadcastPlan, output: UnsafeMutablePointer<UInt16>) {
        precondition(op == .maximum || op == .minimum, "only MAXIMUM and MINIMUM run on bfloat16")
        let f = BFloat16.float(fromBits:)
        // The float kernel's choice (`a > b ? a : b`), returning the chosen operand's bits.
        if op == .maximum {
            plan.apply(lhs, rhs, output) { f($0) > f($1) ? $0 : $1 }
        } else {
            plan.apply(lhs, rhs, output) { f($0) < f($1) ? $0 : $1 }
        }
    }

    /// A comparison of broadcast bfloat16 operands, writing 0/1 bytes.
    public static func compareBFloat16(_ op: ComparisonOperator, lhs: UnsafePointer<UInt16>, rhs: UnsafePointer<UInt16>,
                                       plan: BroadcastPlan, output: UnsafeMutablePointer<UInt8>) {
        let f = BFloat16.float(fromBits:)
        switch op {
        case .equal: plan.apply(lhs, rhs, output) { f($0) == f($1) ? 1 : 0 }
        case .notEqual: plan.apply(lhs, rhs, output) { f($0) != f($1) ? 1 : 0 }
        case .less: plan.apply(lhs, rhs, output) { f($0) < f($1) ? 1 : 0 }
        case .lessEqual: plan.apply(lhs, rhs, output) { f($0) <= f($1) ? 1 : 0 }
        case .greater: plan.apply(lhs, rhs, output) { f($0) > f($1) ? 1 : 0 }
        case .greaterEqual: plan.apply(lhs, rhs, output) { f($0) >= f($1) ? 1 : 0 }
        }
    }
}
