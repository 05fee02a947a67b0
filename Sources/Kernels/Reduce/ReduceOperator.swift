/// The numeric reductions.
public enum ReduceOperator: Sendable, Equatable, CaseIterable {
    /// SUM.
    case sum
    /// MEAN: the sum divided by the number of reduced elements (integer division for integers;
    /// 0 when nothing is reduced).
    case mean
    /// REDUCE_MAX (the type's lowest value when nothing is reduced).
    case max
    /// REDUCE_MIN (the type's greatest value when nothing is reduced).
    case min
    /// REDUCE_PROD (1 when nothing is reduced).
    case product
}
