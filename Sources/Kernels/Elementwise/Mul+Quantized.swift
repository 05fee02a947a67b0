/// What a quantised MUL needs at run time: `input1Scale * input2Scale / outputScale` as one
/// multiplier, and the offsets.
public struct QuantizedMulParams: Sendable {
    /// `-input1ZeroPoint`.
    public var input1Offset: Int32
    /// `-input2ZeroPoint`.
    public var input2Offset: Int32
    /// `outputZeroPoint`.
    public var outputOffset: Int32
    /// The product rescale.
    public var outputMultiplier: QuantizedMultiplier
    /// The fused activation clamp in stored units.
    public var activation: ActivationRange<Int32>

    /// Derives the parameters from the tensors' quantisation. Nil when the fused activation is
    /// not a clamp.
    public static func make(input1: AffineQuantization, input2: AffineQuantization, output: AffineQuantization,
                            activation: FusedActivation, qmin: Int32, qmax: Int32) -> QuantizedMulParams? {
        guard let range = activation.quantizedRange(scale: output.scale, zeroPoint: output.zeroPoint, qmin: qmin, qmax: qmax)
        else { return nil }
        let real = Double(input1.scale) * Double(input2.scale) / Double(output.scale)
        return QuantizedMulParams(input1Offset: -input1.zeroPoint, input2Offset: -input2.zeroPoint,
                                  outputOffset: output.zeroPoint, outputMultiplier: QuantizedMultiplier(real),
                                  activation: range)
    }
}

extension Elementwise.Quantized {
    /// Reference quantised MUL with broadcasting (int8, uint8, int16), as TFLite's reference
    /// integer mul: `(a + offset1) * (b + offset2)` rescaled, offset and clamped.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    @_specialize(exported: true, where T == Int16)
    public static func mul<T: QuantizedElement>(
        _ params: QuantizedMulParams,
        _ a: UnsafePointer<T>, shape aShape: [Int],
        _ b: UnsafePointer<T>, shape bShape: [Int],
        output: UnsafeMutablePointer<T>, outputShape: [Int]
    ) {
        forEachBroadcastElement(a: aShape, b: bShape, output: outputShape) { i, j, o in
            let product = (Int32(a[i]) &+ params.input1Offset) &* (Int32(b[j]) &+ params.input2Offset)
            let value = params.outputMultiplier.apply(product) &+ params.outputOffset
            output[o] = T(clampedQuantized: params.activation.clamp(value))
        }
    }
}
