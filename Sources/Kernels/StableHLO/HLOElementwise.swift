/// The StableHLO binary ops LiteRT runs: operands of one shape (no broadcasting), element by
/// element.
public enum HLOBinaryOperator: Sendable, Equatable, CaseIterable {
    case add, multiply, maximum, minimum
}

public enum HLOElementwise {
    /// `output[i] = lhs[i] op rhs[i]` for `count` elements.
    @inlinable
    public static func binary<T: HLOArithmetic>(_ op: HLOBinaryOperator, lhs: UnsafePointer<T>, rhs: UnsafePointer<T>,
                                                output: UnsafeMutablePointer<T>, count: Int) {
        switch op {
        case .add: for i in 0..<count { output[i] = T.hloAdd(lhs[i], rhs[i]) }
        case .multiply: for i in 0..<count { output[i] = T.hloMultiply(lhs[i], rhs[i]) }
        case .maximum: for i in 0..<count { output[i] = T.hloMaximum(lhs[i], rhs[i]) }
        case .minimum: for i in 0..<count { output[i] = T.hloMinimum(lhs[i], rhs[i]) }
        }
    }

    /// STABLEHLO_AND: bitwise for integers, logical for bool.
    @inlinable
    public static func and<T: HLOBitwise>(lhs: UnsafePointer<T>, rhs: UnsafePointer<T>, output: UnsafeMutablePointer<T>,
                                          count: Int) {
        for i in 0..<count { output[i] = T.hloAnd(lhs[i], rhs[i]) }
    }

    /// STABLEHLO_SHIFT_LEFT. A count outside `0..<bitWidth` gives 0, as the StableHLO
    /// specification says; in LiteRT such counts are undefined behaviour in C++ (the result
    /// changes between its scalar and vectorised loops). Within range, int8 and int16 shift in
    /// int and keep the low bits, which is a wrapping shift.
    @inlinable
    public static func shiftLeft<T: FixedWidthInteger & SignedInteger>(lhs: UnsafePointer<T>, rhs: UnsafePointer<T>,
                                                                       output: UnsafeMutablePointer<T>, count: Int) {
        for i in 0..<count {
            let s = rhs[i]
            output[i] = s >= 0 && s < T.bitWidth ? lhs[i] << s : 0
        }
    }
}
