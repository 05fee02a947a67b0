/// The logical ops over boolean tensors (bytes; any non-zero byte reads as true).
public enum LogicalOperator: Sendable, Equatable, CaseIterable {
    /// LOGICAL_AND.
    case and
    /// LOGICAL_OR.
    case or
}
