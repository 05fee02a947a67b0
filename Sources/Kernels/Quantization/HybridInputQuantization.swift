#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// TFLite's `SymmetricQuantizeFloats`: int8 values in [-127, 127] with
/// `scale = max|x| / 127` (1 for an all-zero input, which quantises to zeros).
public func symmetricQuantizeFloats(_ values: UnsafePointer<Float>, count: Int,
                                    into quantized: UnsafeMutablePointer<Int8>) -> HybridInputScale {
    var lo: Float = 0, hi: Float = 0
    if count > 0 {
        lo = values[0]
        hi = values[0]
        for i in 1..<count {
            lo = min(lo, values[i])
            hi = max(hi, values[i])
        }
    }
    return quantizeFloats(values, count: count, into: quantized, HybridInputScale.symmetric(minimum: lo, maximum: hi))
}

/// TFLite's `AsymmetricQuantizeFloats` (for `asymmetric_quantize_inputs`): the range
/// `[min(0, x), max(0, x)]` over [-128, 127] with a nudged zero point, computed in double.
public func asymmetricQuantizeFloats(_ values: UnsafePointer<Float>, count: Int,
                                     into quantized: UnsafeMutablePointer<Int8>) -> HybridInputScale {
    var lo: Float = 0, hi: Float = 0
    for i in 0..<count {
        lo = min(lo, values[i])
        hi = max(hi, values[i])
    }
    return quantizeFloats(values, count: count, into: quantized, HybridInputScale.asymmetric(minimum: lo, maximum: hi))
}

/// Quantises `values` as `quantization` says, or to zeros (scale 1) where it is nil.
private func quantizeFloats(_ values: UnsafePointer<Float>, count: Int, into quantized: UnsafeMutablePointer<Int8>,
                            _ quantization: HybridQuantization?) -> HybridInputScale {
    guard let quantization else {
        quantized.update(repeating: 0, count: count)
        return HybridInputScale(scale: 1, offset: 0)
    }
    for i in 0..<count { quantized[i] = quantization.quantize(values[i]) }
    return quantization.scale
}

/// How a hybrid kernel's float input becomes int8: its scale, the multiplier that divides by
/// it and the smallest value. The optimised kernels quantise with the same constants and the
/// same rounding, so their int8 inputs are the reference's.
public struct HybridQuantization: Sendable {
    /// The scale and zero point.
    public let scale: HybridInputScale
    /// What a value is multiplied by: `127 / max|x|` (symmetric) or `1 / scale` (asymmetric).
    public let inverse: Float
    /// The smallest stored value: -127 (symmetric) or -128 (asymmetric).
    public let lowest: Float

    /// `x` quantised: `zeroPoint + x * inverse` rounded half away from zero, clamped to
    /// `lowest...127` (NaN becomes `lowest`).
    @inlinable
    public func quantize(_ x: Float) -> Int8 {
        let q = (Float(scale.offset) + x * inverse).rounded(.toNearestOrAwayFromZero)
        return Int8(min(127, max(lowest, q)))
    }
}

extension HybridInputScale {
    /// The symmetric quantisation of values in `minimum...maximum`; nil when both are zero.
    public static func symmetric(minimum lo: Float, maximum hi: Float) -> HybridQuantization? {
        let range = max(abs(lo), abs(hi))
        if range == 0 { return nil }
        return HybridQuantization(scale: HybridInputScale(scale: range / 127, offset: 0), inverse: 127 / range, lowest: -127)
    }

    /// The asymmetric quantisation of values in `minimum...maximum` (both taken with 0 already:
    /// `minimum <= 0 <= maximum`); nil when the range is empty.
    public static func asymmetric(minimum lo: Float, maximum hi: Float) -> HybridQuantization? {
        let (rmin, rmax) = (Double(lo), Double(hi))
        if rmin == rmax { return nil }
        let (qmin, qmax) = (-128.0, 127.0)
        let scale = (rmax - rmin) / (qmax - qmin)
        let fromMin = qmin - rmin / scale, fromMax = qmax - rmax / scale
        let errorMin = abs(qmin) + abs(rmin / scale), errorMax = abs(qmax) + abs(rmax / scale)
        let zero = errorMin < errorMax ? fromMin : fromMax
        // A non-finite zero point (from non-finite inputs) is taken as 0 rather than trapping.
        let offset: Int32 = !zero.isFinite ? 0 : zero <= qmin ? -128 : zero >= qmax ? 127 : Int32(zero.rounded(.toNearestOrAwayFromZero))
        let scaleFloat = Float(scale)
        return HybridQuantization(scale: HybridInputScale(scale: scaleFloat, offset: offset), inverse: 1 / scaleFloat, lowest: -128)
    }
}
