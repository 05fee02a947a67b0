/// What a quantised ADD, SUB or SQUARED_DIFFERENCE needs at run time, as TFLite's prepare
/// derives it: both inputs are brought to a common scale (twice the larger input scale) after a
/// left shift (20 bits for 8-bit ADD/SUB, 15 for int16, 7 for SQUARED_DIFFERENCE), combined
/// (summed, subtracted, or subtracted and squared), then rescaled to the output.
public struct QuantizedAddParams: Sendable {
    /// `-input1ZeroPoint`.
    public var input1Offset: Int32
    /// `-input2ZeroPoint`.
    public var input2Offset: Int32
    /// `outputZeroPoint`.
    public var outputOffset: Int32
    /// Headroom bits applied before the input rescale: 20 for 8-bit ADD/SUB, 15 for int16, 7 for
    /// SQUARED_DIFFERENCE.
    public var leftShift: Int
    /// `input1Scale / (2 * max input scale)`, never above 1/2.
    public var input1Multiplier: QuantizedMultiplier
    /// `input2Scale / (2 * max input scale)`.
    public var input2Multiplier: QuantizedMultiplier
    /// `2 * max input scale / (2^leftShift * outputScale)`; for SQUARED_DIFFERENCE
    /// `(2 * max input scale)^2 / (2^(2 * leftShift) * outputScale)`.
    public var outputMultiplier: QuantizedMultiplier
    /// The fused activation clamp in stored units (the storage range for SQUARED_DIFFERENCE).
    public var activation: ActivationRange<Int32>

    /// Derives the parameters from the tensors' quantisation. Nil when the fused activation is
    /// not a clamp or a multiplier is out of TFLite's supported range.
    public static func make(input1: AffineQuantization, input2: AffineQuantization, output: AffineQuantization,
                            activation: FusedActivation, qmin: Int32, qmax: Int32,
                            leftShift: Int = 20) -> QuantizedAddParams? {
        guard let range = activation.quantizedRange(scale: output.scale, zeroPoint: output.zeroPoint, qmin: qmin, qmax: qmax)
        else { return nil }
        let twiceMax = 2 * Double(max(input1.scale, input2.scale))
        let real1 = Double(input1.scale) / twiceMax
        let real2 = Double(input2.scale) / twiceMax
        let realOut = twiceMax / (Double(1 << leftShift) * Double(output.scale))
        guard let m1 = QuantizedMultiplier.smallerThanOne(real1), let m2 = QuantizedMultiplier.smallerThanOne(real2),
              let mo = QuantizedMultiplier.smallerThanOne(realOut)
        else { return nil }
        return QuantizedAddParams(input1Offset: -input1.zeroPoint, input2Offset: -input2.zeroPoint,
                                  outputOffset: output.zeroPoint, leftShift: leftShift,
                                  input1Multiplier: m1, input2Multiplier: m2, outputMultiplier: mo, activation: range)
    }

    /// The parameters of SQUARED_DIFFERENCE, derived from the tensors' quantisation: a 7-bit
    /// left shift and no fused activation.
    public static func makeSquaredDifference(input1: AffineQuantization, input2: AffineQuantization,
                                             output: AffineQuantization, qmin: Int32, qmax: Int32) -> QuantizedAddParams {
        let leftShift = 7
        let twiceMax = 2 * Double(max(input1.scale, input2.scale))
        let realOutput = twiceMax * twiceMax / (Double(1 << (leftShift * 2)) * Double(output.scale))
        return QuantizedAddParams(
            input1Offset: -input1.zeroPoint, input2Offset: -input2.zeroPoint, outputOffset: output.zeroPoint,
            leftShift: leftShift,
            input1Multiplier: QuantizedMultiplier(Double(input1.scale) / twiceMax),
            input2Multiplier: QuantizedMultiplier(Double(input2.scale) / twiceMax),
            outputMultiplier: QuantizedMultiplier(realOutput),
            activation: ActivationRange(min: qmin, max: qmax))
    }

    /// `x` brought to the common scale: offset, shifted left by `leftShift`, rescaled by `m`.
    @inline(__always)
    @inlinable package func rescaled(_ x: Int32, offset: Int32, _ m: QuantizedMultiplier) -> Int32 {
        m.apply((x &+ offset) &* (1 << Int32(leftShift)))
    }

    /// The combined value `raw` in the output's scale and zero point, clamped.
    @inline(__always)
    @inlinable package func output(_ raw: Int32) -> Int32 {
        activation.clamp(outputMultiplier.apply(raw) &+ outputOffset)
    }
}

/// The quantised binary ops that bring both inputs to a common scale before combining them
/// (``QuantizedAddParams``); they differ only in how the two rescaled values combine.
public enum RescaledBinaryOperator: Sendable {
    case add, subtract, squaredDifference
}

extension Elementwise.Quantized {
    /// Reference quantised ADD, SUB or SQUARED_DIFFERENCE with broadcasting (int8, uint8, int16),
    /// as TFLite's reference integer kernels compute them. The input rescales never exceed 1/2,
    /// and ADD's and SUB's output rescale is below 1, so the general multiply gives what TFLite's
    /// `SmallerThanOneExp` form gives there.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    @_specialize(exported: true, where T == Int16)
    public static func rescaledBinary<T: QuantizedElement>(
        _ op: RescaledBinaryOperator, _ params: QuantizedAddParams,
        _ a: UnsafePointer<T>, shape aShape: [Int],
        _ b: UnsafePointer<T>, shape bShape: [Int],
        output: UnsafeMutablePointer<T>, outputShape: [Int]
    ) {
        @inline(__always)
        func combined(_ combine: (Int32, Int32) -> Int32) {
            forEachBroadcastElement(a: aShape, b: bShape, output: outputShape) { i, j, o in
                let x = params.rescaled(Int32(a[i]), offset: params.input1Offset, params.input1Multiplier)
                let y = params.rescaled(Int32(b[j]), offset: params.input2Offset, params.input2Multiplier)
                output[o] = T(clampedQuantized: params.output(combine(x, y)))
            }
        }
        switch op {
        case .add: combined(&+)
        case .subtract: combined(&-)
        case .squaredDifference: combined { x, y in (x &- y) &* (x &- y) }
        }
    }
}
