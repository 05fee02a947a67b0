/// How 8-bit pixel values become a model's float input values.
public enum PixelNormalization: Sendable, Equatable {
    /// `(v - mean[c]) / std[c]` per channel `c`; `mean` and `std` hold one value for all
    /// channels or one per channel.
    case meanStd(mean: [Float], std: [Float])
    /// `v / 255 * (upper - lower) + lower`, evaluated in float32 in that order (the way
    /// MediaPipe's `output_tensor_float_range` and the corpus preprocessing compute it).
    case range(lower: Float, upper: Float)

    /// Raw values 0...255 as floats.
    public static let raw = PixelNormalization.meanStd(mean: [0], std: [1])
    /// 0...255 mapped to [0, 1].
    public static let unitRange = PixelNormalization.range(lower: 0, upper: 1)
    /// 0...255 mapped to [-1, 1].
    public static let signedUnitRange = PixelNormalization.range(lower: -1, upper: 1)
}
