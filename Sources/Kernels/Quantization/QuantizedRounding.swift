/// How an int32 accumulator is rounded when rescaled.
///
/// LiteRT's reference kernels use the double-rounding form (`.double`) almost everywhere; its
/// FULLY_CONNECTED results match the single-rounding form (`.single`), which differs from the
/// double form in about one output in 2^|shift| (2 of the 1000 outputs of EfficientNet-Lite0's
/// classifier).
public enum QuantizedRounding: Sendable, Equatable {
    /// `roundingDivideByPOT(saturatingRoundingDoublingHighMul(x, m), -shift)`.
    case double
    /// One rounding of the exact 64-bit product.
    case single
}
