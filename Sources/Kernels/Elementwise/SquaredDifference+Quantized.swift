/// What a quantised SQUARED_DIFFERENCE needs at run time, as TFLite's prepare derives it: both
/// inputs brought to a common scale after a 7-bit left shift, the difference squared, then one
/// rescale to the output.
public struct QuantizedSquaredDifferenceParams: Sendable {
    /// `-input1ZeroPoint`.
    public var input1Offset: Int32
    /// `-input2ZeroPoint`.
    public var input2Offset: Int32
    /// `outputZeroPoint`.
    public var outputOffset: Int32
    /// `input1Scale / (2 * max input scale)`.
    public var input1Multiplier: QuantizedMultiplier
    /// `input2Scale / (2 * max input scale)`.
    public var input2Multiplier: QuantizedMultiplier
    /// `(2 * max input scale)^2 / (2^14 * outputScale)`.
    public var outputMultiplier: QuantizedMultiplier
    /// The output clamp (the storage range).
    public var activation: ActivationRange<Int32>

    /// The headroom shift applied to both inputs.
    public static let leftShift = 7

    /// Derives the parameters from the tensors' quantisation.
    public static func make(input1: AffineQuantization, input2: AffineQuantization, output: AffineQuantization,
                            qmin: Int32, qmax: Int32) -> QuantizedSquaredDifferenceParams {
        let twiceMax = 2 * Double(max(input1.scale, input2.scale))
        let realOutput = twiceMax * twiceMax / (Double(1 << (leftShift * 2)) * Double(output.scale))
        return QuantizedSquaredDifferenceParams(
            input1Offset: -input1.zeroPoint, input2Offset: -input2.zeroPoint, outputOffset: output.zeroPoint,
            input1Multiplier: QuantizedMultiplier(Double(input1.scale) / twiceMax),
            input2Multiplier: QuantizedMultiplier(Double(input2.scale) / twiceMax),
            outputMultiplier: QuantizedMultiplier(realOutput),
            activation: ActivationRange(min: qmin, max: qmax))
    }
}

extension Elementwise.Quantized {
    /// Reference quantised SQUARED_DIFFERENCE with broadcasting (int8, uint8, int16).
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    public static func squaredDifference<T: QuantizedElement>(
        _ params: QuantizedSquaredDifferenceParams,
        _ a: UnsafePointer<T>, shape aShape: [Int],
        _ b: UnsafePointer<T>, shape bShape: [Int],
        output: UnsafeMutablePointer<T>, outputShape: [Int]
    ) {
        let shift = Int32(1) << Int32(QuantizedSquaredDifferenceParams.leftShift)
        forEachBroadcastElement(a: aShape, b: bShape, output: outputShape) { i, j, o in
            let x = params.input1Multiplier.apply((Int32(a[i]) &+ params.input1Offset) &* shift)
            let y = params.input2Multiplier.apply((Int32(b[j]) &+ params.input2Offset) &* shift)
            let d = x &- y
            let value = params.outputMultiplier.apply(d &* d) &+ params.outputOffset
            output[o] = T(clampedQuantized: params.activation.clamp(value))
        }
    }
}
