extension Elementwise.Quantized {
    /// Quantised ABS (int8, int16), as TFLite's `AbsEvalQuantized`: `|q - inputZeroPoint|`, rescaled
    /// by `inputScale / outputScale` unless the scales are equal, plus the output zero point.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == Int16)
    public static func absoluteValue<T: QuantizedElement>(input: UnsafePointer<T>, inputQuantization: AffineQuantization,
                                                          output: UnsafeMutablePointer<T>, outputQuantization: AffineQuantization,
                                                          count: Int) {
        let rescale = inputQuantization.scale != outputQuantization.scale
        let m = QuantizedMultiplier(Double(inputQuantization.scale) / Double(outputQuantization.scale))
        for i in 0..<count {
            let value = abs(Int32(input[i]) - inputQuantization.zeroPoint)
            let scaled = rescale ? m.apply(value) : value
            output[i] = T(saturatingQuantized: scaled &+ outputQuantization.zeroPoint)
        }
    }

    /// Quantised SQRT (int8, int16), as LiteRT computes it: `sqrtf` of the dequantised value,
    /// divided by the output scale and truncated (not rounded), plus the output zero point.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == Int16)
    public static func squareRoot<T: QuantizedElement>(input: UnsafePointer<T>, inputQuantization: AffineQuantization,
                                                       output: UnsafeMutablePointer<T>, outputQuantization: AffineQuantization,
                                                       count: Int) {
        for i in 0..<count {
            let real = inputQuantization.scale * Float(Int32(input[i]) - inputQuantization.zeroPoint)
            let value = int32LikeX86(real.squareRoot() / outputQuantization.scale)
            output[i] = T(saturatingQuantized: value &+ outputQuantization.zeroPoint)
        }
    }
}

/// What an int8 RSQRT needs: `1 / (sqrt(inputScale) * outputScale)` as a multiplier (the square
/// root and product in float, the reciprocal in double, as TFLite's prepare computes it).
public struct Int8RsqrtParams: Sendable {
    /// The input zero point.
    public var inputZeroPoint: Int32
    /// The output zero point.
    public var outputZeroPoint: Int32
    /// The output rescale.
    public var multiplier: QuantizedMultiplier

    /// Derives the parameters.
    public init(input: AffineQuantization, output: AffineQuantization) {
        inputZeroPoint = input.zeroPoint
        outputZeroPoint = output.zeroPoint
        multiplier = QuantizedMultiplier(1.0 / Double(input.scale.squareRoot() * output.scale))
    }
}

extension Elementwise.Quantized {
    /// Int8 RSQRT in fixed point, as TFLite's `RsqrtEvalQuantized`: the inverse square root of
    /// `q - inputZeroPoint` as a multiplier (`inverseSqrtQuantizedMultiplier`), applied to 1 with
    /// 20 bits of headroom, then rescaled to the output. A zero difference gives 127. Inputs below
    /// the zero point are rejected by TFLite at run time; here they are treated as zero.
    public static func reciprocalSquareRoot(_ params: Int8RsqrtParams, input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>, count: Int) {
        let headroom = 20
        for i in 0..<count {
            let value = Int32(input[i]) - params.inputZeroPoint
            if value <= 0 {
                output[i] = .max
                continue
            }
            let inverse = inverseSqrtQuantizedMultiplier(value, reverseShift: -1)
            let data = multiplyByQuantizedMultiplier(Int32(1), inverse.multiplier, inverse.shift + headroom)
            let result = multiplyByQuantizedMultiplier(data, params.multiplier.multiplier, params.multiplier.shift - headroom)
                &+ params.outputZeroPoint
            output[i] = Int8(saturatingQuantized: result)
        }
    }
}
