/// The unary ops TFLite also defines on int32 and int64 tensors.
public enum IntegerUnaryFunction: Sendable, Equatable, CaseIterable {
    /// ABS (wrapping: the minimum value maps to itself).
    case abs
    /// NEG (wrapping).
    case negate
    /// SQUARE (wrapping).
    case square
    /// SIGN: -1, 0 or 1.
    case sign
}

extension Activations {
    /// Applies an integer unary op to `count` int32 values.
    public static func apply(_ function: IntegerUnaryFunction, input: UnsafePointer<Int32>,
                             output: UnsafeMutablePointer<Int32>, count: Int) {
        integerApply(function, input, output, count)
    }

    /// Applies an integer unary op to `count` int64 values.
    public static func apply(_ function: IntegerUnaryFunction, input: UnsafePointer<Int64>,
                             output: UnsafeMutablePointer<Int64>, count: Int) {
        integerApply(function, input, output, count)
    }

    @inline(__always)
    static func integerApply<T: FixedWidthInteger & SignedInteger>(_ function: IntegerUnaryFunction,
                                                                   _ input: UnsafePointer<T>,
                                                                   _ output: UnsafeMutablePointer<T>, _ count: Int) {
        switch function {
        case .abs: for i in 0..<count { let x = input[i]; output[i] = x < 0 ? 0 &- x : x }
        case .negate: for i in 0..<count { output[i] = 0 &- input[i] }
        case .square: for i in 0..<count { output[i] = input[i] &* input[i] }
        case .sign: for i in 0..<count { output[i] = input[i] > 0 ? 1 : (input[i] < 0 ? -1 : 0) }
        }
    }
}
