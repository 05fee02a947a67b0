/// BITWISE_XOR and RIGHT_SHIFT with NumPy broadcasting over integer tensors.
public enum Bitwise {
    /// BITWISE_XOR.
    public static func xor<T: FixedWidthInteger>(lhs: UnsafePointer<T>, rhs: UnsafePointer<T>, plan: BroadcastPlan,
                                                 output: UnsafeMutablePointer<T>) {
        plan.apply(lhs, rhs, output) { $0 ^ $1 }
    }

    /// RIGHT_SHIFT: an arithmetic shift for signed types, logical for unsigned. The shift
    /// count is clamped to `0...(bitWidth - 1)` as TFLite does, so negative or oversized
    /// counts are defined.
    public static func rightShift<T: FixedWidthInteger>(lhs: UnsafePointer<T>, rhs: UnsafePointer<T>, plan: BroadcastPlan,
                                                        output: UnsafeMutablePointer<T>) {
        plan.apply(lhs, rhs, output) { x, y in
            let count = y < 0 ? 0 : (y > T(T.bitWidth - 1) ? T.bitWidth - 1 : Int(y))
            return x >> count
        }
    }
}
