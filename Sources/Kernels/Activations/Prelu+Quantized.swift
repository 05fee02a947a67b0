/// What a quantised PRELU needs at run time, as TFLite's prelu prepare derives it.
public struct QuantizedPreluParams: Sendable {
    /// `-inputZeroPoint`.
    public var inputOffset: Int32
    /// `-alphaZeroPoint`.
    public var alphaOffset: Int32
    /// `outputZeroPoint`.
    public var outputOffset: Int32
    /// `inputScale / outputScale`, for non-negative inputs.
    public var identityMultiplier: QuantizedMultiplier
    /// `inputScale * alphaScale / outputScale`, for negative inputs.
    public var alphaMultiplier: QuantizedMultiplier

    /// Derives the parameters from the tensors' quantisation.
    public static func make(input: AffineQuantization, alpha: AffineQuantization,
                            output: AffineQuantization) -> QuantizedPreluParams {
        QuantizedPreluParams(inputOffset: -input.zeroPoint, alphaOffset: -alpha.zeroPoint, outputOffset: output.zeroPoint,
                             identityMultiplier: QuantizedMultiplier(Double(input.scale) / Double(output.scale)),
                             alphaMultiplier: QuantizedMultiplier(Double(input.scale) * Double(alpha.scale) / Double(output.scale)))
    }
}

extension Activations.Quantized {
    /// Reference quantised PRELU (int8, uint8) with `alpha` broadcast against `input`, as TFLite's
    /// `BroadcastPrelu4DSlow`.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    public static func prelu<T: QuantizedElement>(
        _ params: QuantizedPreluParams,
        input: UnsafePointer<T>, inputShape: [Int],
        alpha: UnsafePointer<T>, alphaShape: [Int],
        output: UnsafeMutablePointer<T>, outputShape: [Int]
    ) {
        forEachBroadcastElement(a: inputShape, b: alphaShape, output: outputShape) { i, j, o in
            let x = params.inputOffset &+ Int32(input[i])
            var value: Int32
            if x >= 0 {
                value = params.identityMultiplier.apply(x)
            } else {
                value = params.alphaMultiplier.apply(x &* (params.alphaOffset &+ Int32(alpha[j])))
            }
            value &+= params.outputOffset
            output[o] = T(saturatingQuantized: value)
        }
    }
}
