/// The comparison ops. Results are stored as TFLite stores booleans: one byte, 0 or 1.
public enum ComparisonOperator: Sendable, Equatable, CaseIterable {
    /// EQUAL.
    case equal
    /// NOT_EQUAL.
    case notEqual
    /// LESS.
    case less
    /// LESS_EQUAL.
    case lessEqual
    /// GREATER.
    case greater
    /// GREATER_EQUAL.
    case greaterEqual
}
