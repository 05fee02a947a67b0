/// Affine quantisation of a tensor: `real = scale * (stored - zeroPoint)`, per tensor or per
/// slice along `quantizedDimension`.
public struct QuantizationParameters: Sendable, Equatable {
    /// One scale per tensor, or one per slice along `quantizedDimension`.
    public var scales: [Float]
    /// One zero point per scale.
    public var zeroPoints: [Int64]
    /// The axis the per-slice parameters run along (0 for per-tensor).
    public var quantizedDimension: Int

    public init(scales: [Float], zeroPoints: [Int64], quantizedDimension: Int = 0) {
        self.scales = scales
        self.zeroPoints = zeroPoints
        self.quantizedDimension = quantizedDimension
    }

    /// The per-tensor scale (the first, for per-axis parameters).
    public var scale: Float { scales.first ?? 0 }
    /// The per-tensor zero point (the first, for per-axis parameters).
    public var zeroPoint: Int { Int(zeroPoints.first ?? 0) }
    /// True when there is more than one scale.
    public var isPerAxis: Bool { scales.count > 1 }

    /// Reads the model's parameters for a tensor of rank `rank`; nil when the tensor is not
    /// affinely quantised. A vector has one axis whatever the model says (TFLite Micro's
    /// person_detect gives its per-channel biases axis 3), so its axis is 0.
    init?(_ q: Schema.QuantizationParameters?, rank: Int) {
        guard let q, !q.scale.isEmpty else { return nil }
        let zeros = q.zeroPoint.isEmpty ? [Int64](repeating: 0, count: q.scale.count) : q.zeroPoint
        self.init(scales: q.scale, zeroPoints: zeros, quantizedDimension: rank == 1 ? 0 : Int(q.quantizedDimension))
    }
}
