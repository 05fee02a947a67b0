extension FusedActivation {
    /// The clamp a fused activation applies to a quantised output, as TFLite's
    /// `CalculateActivationRangeQuantized` computes it: the activation's real bounds quantised
    /// with the output scale and zero point (rounding half away from zero in float), then
    /// intersected with the storage range `[qmin, qmax]`. Nil for TANH and SIGN_BIT, which are
    /// not clamps.
    public func quantizedRange(scale: Float, zeroPoint: Int32, qmin: Int32, qmax: Int32) -> ActivationRange<Int32>? {
        func quantize(_ f: Float) -> Int32 {
            zeroPoint &+ int32LikeX86((f / scale).rounded(.toNearestOrAwayFromZero))
        }
        switch self {
        case .none: return ActivationRange(min: qmin, max: qmax)
        case .relu: return ActivationRange(min: Swift.max(qmin, quantize(0)), max: qmax)
        case .relu6: return ActivationRange(min: Swift.max(qmin, quantize(0)), max: Swift.min(qmax, quantize(6)))
        case .reluN1To1: return ActivationRange(min: Swift.max(qmin, quantize(-1)), max: Swift.min(qmax, quantize(1)))
        case .tanh, .signBit: return nil
        }
    }

    /// `quantizedRange(scale:zeroPoint:qmin:qmax:)` over the whole range of the storage type.
    public func quantizedRange<T: QuantizedElement>(scale: Float, zeroPoint: Int32, as type: T.Type) -> ActivationRange<Int32>? {
        quantizedRange(scale: scale, zeroPoint: zeroPoint, qmin: T.quantizedMin, qmax: T.quantizedMax)
    }
}
