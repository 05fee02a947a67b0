/// How a quantised tensor's stored integers map to real numbers:
/// `realValue = scale * (quantizedValue - zeroPoint)`.
public struct QuantizationParameters: Equatable, Hashable, Sendable {
    /// The real difference between two consecutive quantised values.
    public let scale: Float
    /// The quantised value that stands for the real value 0.
    public let zeroPoint: Int

    /// Internal, as in TensorFlowLiteSwift: parameters come from a model's tensors.
    init(scale: Float, zeroPoint: Int) {
        self.scale = scale
        self.zeroPoint = zeroPoint
    }
}
