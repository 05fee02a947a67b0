/// The arithmetic binary ops, with TFLite's semantics.
public enum BinaryOperator: Sendable, Equatable, CaseIterable {
    /// ADD.
    case add
    /// SUB.
    case subtract
    /// MUL.
    case multiply
    /// DIV. Integers truncate toward zero; an integer division by zero gives 0 (TFLite leaves
    /// it undefined).
    case divide
    /// MAXIMUM.
    case maximum
    /// MINIMUM.
    case minimum
    /// SQUARED_DIFFERENCE, `(a - b)^2`.
    case squaredDifference
    /// POW. Integers: repeated multiplication (wrapping); a negative exponent, which TFLite
    /// rejects, gives `1 / a^|b|` truncated (so 0 unless `|a| == 1`).
    case power
    /// FLOOR_DIV, `floor(a / b)`. An integer division by zero gives 0 (TFLite reports an error).
    case floorDivide
    /// FLOOR_MOD: the remainder with the sign of the divisor. Integer modulo zero gives 0.
    case floorModulo
}
