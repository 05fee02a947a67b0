/// The float activations and unary math ops, each an elementwise function of one value.
public enum UnaryFunction: Sendable, Equatable {
    /// RELU, `max(0, x)`.
    case relu
    /// RELU6, `min(max(0, x), 6)`.
    case relu6
    /// RELU_N1_TO_1, `min(max(-1, x), 1)`.
    case reluN1To1
    /// RELU_0_TO_1, `min(max(0, x), 1)`.
    case relu0To1
    /// LEAKY_RELU, `x > 0 ? x : alpha * x`.
    case leakyRelu(alpha: Float)
    /// LOGISTIC, `1 / (1 + exp(-x))`.
    case logistic
    /// TANH.
    case tanh
    /// HARD_SWISH, `x * relu6(x + 3) / 6`.
    case hardSwish
    /// ELU, `x < 0 ? exp(x) - 1 : x`.
    case elu
    /// GELU: exact `x * Phi(x)` through `erfc`, or the tanh approximation.
    case gelu(approximate: Bool)
    /// EXP.
    case exp
    /// LOG (natural).
    case log
    /// SQRT.
    case sqrt
    /// RSQRT, `1 / sqrt(x)`.
    case rsqrt
    /// ABS.
    case abs
    /// NEG.
    case negate
    /// SIN.
    case sin
    /// COS.
    case cos
    /// SQUARE.
    case square
    /// FLOOR.
    case floor
    /// CEIL.
    case ceil
    /// ROUND: to nearest, ties to even (TFLite's `RoundToNearest`).
    case round
    /// SIGN: -1, 0 or 1 (0 for NaN).
    case sign
}

/// Elementwise activation and unary-math kernels.
public enum Activations {}
