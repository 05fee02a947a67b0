/// What quantised RELU, RELU6, RELU_N1_TO_1 and LEAKY_RELU need at run time.
public struct QuantizedReluParams: Sendable {
    /// The input zero point (subtracted from stored inputs).
    public var inputZeroPoint: Int32
    /// The output zero point.
    public var outputZeroPoint: Int32
    /// `inputScale / outputScale`: the rescale for non-negative inputs.
    public var identityMultiplier: QuantizedMultiplier
    /// `inputScale * alpha / outputScale` (LEAKY_RELU's slope for negative inputs).
    public var alphaMultiplier: QuantizedMultiplier
    /// The clamp in stored units (the activation's bounds for the RELU family).
    public var range: ActivationRange<Int32>

    /// RELU (`lower` 0, `upper` infinity), RELU6 (0, 6) or RELU_N1_TO_1 (-1, 1), with the clamp
    /// quantised as TFLite's `QuantizedReluX` does (an infinite upper bound means the storage
    /// maximum).
    public static func relu(lower: Float, upper: Float, input: AffineQuantization, output: AffineQuantization,
                            qmin: Int32, qmax: Int32) -> QuantizedReluParams {
        let low = max(qmin, output.zeroPoint &+ int32LikeX86((lower / output.scale).rounded(.toNearestOrAwayFromZero)))
        let high = upper == .infinity ? qmax
            : min(qmax, output.zeroPoint &+ int32LikeX86((upper / output.scale).rounded(.toNearestOrAwayFromZero)))
        let identity = QuantizedMultiplier(Double(input.scale) / Double(output.scale))
        return QuantizedReluParams(inputZeroPoint: input.zeroPoint, outputZeroPoint: output.zeroPoint,
                                   identityMultiplier: identity, alphaMultiplier: identity,
                                   range: ActivationRange(min: low, max: high))
    }

    /// LEAKY_RELU with slope `alpha` for negative inputs.
    public static func leakyRelu(alpha: Float, input: AffineQuantization, output: AffineQuantization,
                                 qmin: Int32, qmax: Int32) -> QuantizedReluParams {
        QuantizedReluParams(inputZeroPoint: input.zeroPoint, outputZeroPoint: output.zeroPoint,
                            identityMultiplier: QuantizedMultiplier(Double(input.scale) / Double(output.scale)),
                            alphaMultiplier: QuantizedMultiplier(Double(input.scale) * Double(alpha) / Double(output.scale)),
                            range: ActivationRange(min: qmin, max: qmax))
    }
}

extension Activations.Quantized {
    /// Reference quantised RELU / RELU6 / RELU_N1_TO_1 (int8, uint8): rescale to the output
    /// quantisation, then clamp to the activation's bounds, as TFLite's `ReluX`.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    public static func relu<T: QuantizedElement>(_ params: QuantizedReluParams, input: UnsafePointer<T>,
                                                 output: UnsafeMutablePointer<T>, count: Int) {
        for i in 0..<count {
            let value = params.outputZeroPoint &+ params.identityMultiplier.apply(Int32(input[i]) &- params.inputZeroPoint)
            output[i] = T(clampedQuantized: params.range.clamp(value))
        }
    }

    /// Reference quantised LEAKY_RELU (int8, uint8, int16), as TFLite's `QuantizeLeakyRelu`: the
    /// identity rescale for non-negative inputs, the alpha rescale (applied to the magnitude of a
    /// negative alpha, then negated) otherwise.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    @_specialize(exported: true, where T == Int16)
    public static func leakyRelu<T: QuantizedElement>(_ params: QuantizedReluParams, input: UnsafePointer<T>,
                                                      output: UnsafeMutablePointer<T>, count: Int) {
        let negativeAlpha = params.alphaMultiplier.multiplier < 0
        let alpha = QuantizedMultiplier(multiplier: negativeAlpha ? -params.alphaMultiplier.multiplier : params.alphaMultiplier.multiplier,
                                        shift: params.alphaMultiplier.shift)
        for i in 0..<count {
            let x = Int32(input[i]) &- params.inputZeroPoint
            var value = params.outputZeroPoint
            if x >= 0 {
                value &+= params.identityMultiplier.apply(x)
            } else {
                let scaled = alpha.apply(x)
                value &+= negativeAlpha ? -scaled : scaled
            }
            output[i] = T(clampedQuantized: params.range.clamp(value))
        }
    }
}
