/// What a quantised HARD_SWISH needs at run time, as TFLite's hard-swish prepare derives it:
/// two 16-bit fixed-point multipliers, one to the output scale and one to the "reluish" scale
/// (3/32768) on which `relu6(x + 3) / 6` is computed.
public struct QuantizedHardSwishParams: Sendable {
    /// The input zero point.
    public var inputZeroPoint: Int16
    /// The output zero point.
    public var outputZeroPoint: Int16
    /// Q0.15 significand of `inputScale / 128 / (3 / 32768)`.
    public var reluishMultiplier: Int16
    /// Its power-of-two exponent.
    public var reluishExponent: Int
    /// Q0.15 significand of `inputScale / 128 / outputScale`.
    public var outputMultiplier: Int16
    /// Its power-of-two exponent (never positive).
    public var outputExponent: Int

    /// Derives the parameters. Nil when the output multiplier needs a left shift, which TFLite
    /// rejects too.
    public static func make(input: AffineQuantization, output: AffineQuantization) -> QuantizedHardSwishParams? {
        let hiresInputScale = (1.0 as Float / 128.0) * input.scale
        let reluishScale: Float = 3.0 / 32768.0
        let out = QuantizedMultiplier(Double(hiresInputScale / output.scale))
        let reluish = QuantizedMultiplier(Double(hiresInputScale / reluishScale))
        guard out.shift <= 0 else { return nil }
        return QuantizedHardSwishParams(inputZeroPoint: Int16(truncatingIfNeeded: input.zeroPoint),
                                        outputZeroPoint: Int16(truncatingIfNeeded: output.zeroPoint),
                                        reluishMultiplier: downscaleToInt16(reluish.multiplier), reluishExponent: reluish.shift,
                                        outputMultiplier: downscaleToInt16(out.multiplier), outputExponent: out.shift)
    }

    /// TFLite's `DownScaleInt32ToInt16Multiplier`: round a Q0.31 significand to Q0.15,
    /// saturating at `Int16.max`.
    static func downscaleToInt16(_ m: Int32) -> Int16 {
        let roundingOffset: Int32 = 1 << 15
        if m >= Int32.max - roundingOffset { return .max }
        return Int16(truncatingIfNeeded: (m + roundingOffset) >> 16)
    }
}

extension Activations.Quantized {
    /// Reference quantised HARD_SWISH (int8, uint8) in TFLite's 16-bit fixed-point arithmetic.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    public static func hardSwish<T: QuantizedElement>(_ params: QuantizedHardSwishParams, input: UnsafePointer<T>,
                                                      output: UnsafeMutablePointer<T>, count: Int) {
        for i in 0..<count {
            let value = Int16(truncatingIfNeeded: Int32(input[i]) - Int32(params.inputZeroPoint))
            let hires = Int16(truncatingIfNeeded: Int32(value) * (1 << 7))
            let preshiftOutput = saturatingRoundingDoublingHighMul16(hires, params.outputMultiplier)
            var reluish = hires
            if params.reluishExponent > 0 {
                reluish = saturatingLeftShift16(reluish, params.reluishExponent - 1)
            }
            reluish = saturatingRoundingDoublingHighMul16(reluish, params.reluishMultiplier)
            if params.reluishExponent > 0 {
                reluish = saturatingLeftShift16(reluish, 1)
            }
            if params.reluishExponent < 0 {
                reluish = roundingDivideByPOT16(reluish, -params.reluishExponent)
            }
            // Maps [-32768, 32767] (the reluish value on [-3, 3]) to [0, 32767] (relu6(x + 3) / 6).
            reluish = Int16(truncatingIfNeeded: (Int32(reluish) + (1 << 15)) >> 1)
            let preshift = doublingHighMul16(reluish, preshiftOutput)
            var result = Int32(roundingDivideByPOT16(preshift, -params.outputExponent))
            result += Int32(params.outputZeroPoint)
            output[i] = T(saturatingQuantized: Int32(Int16(truncatingIfNeeded: result)))
        }
    }
}

/// TFLite's hard-swish `SaturatingDoublingHighMul`: the same without rounding (truncating).
@inline(__always)
func doublingHighMul16(_ a: Int16, _ b: Int16) -> Int16 {
    if a == b && a == .min { return .max }
    return Int16(truncatingIfNeeded: (Int32(a) * Int32(b)) / (1 << 15))
}

/// gemmlowp's `RoundingDivideByPOT` on int16.
@inline(__always)
func roundingDivideByPOT16(_ x: Int16, _ exponent: Int) -> Int16 {
    let mask = Int16(truncatingIfNeeded: (1 << exponent) - 1)
    let remainder = x & mask
    let threshold = (mask >> 1) + (x < 0 ? 1 : 0)
    return (x >> Int16(exponent)) + (remainder > threshold ? 1 : 0)
}

/// `value * 2^amount` saturated to int16.
@inline(__always)
func saturatingLeftShift16(_ value: Int16, _ amount: Int) -> Int16 {
    let result = Int64(value) * (Int64(1) << amount)
    return Int16(max(min(result, Int64(Int16.max)), Int64(Int16.min)))
}
