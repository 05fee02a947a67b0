#if TFLITE_ISA_MODULE
import Kernels
#endif
/// The float input of a hybrid kernel quantised to int8 a vector at a time, with the
/// reference's constants (``HybridQuantization``) and rounding, so the int8 values and the
/// scale are the reference's (`symmetricQuantizeFloats`, `asymmetricQuantizeFloats`): at one
/// value a time, quantising a layer's input took as long as its convolution.
enum HybridInputQuantizer {
    /// Quantises `count` values into `quantized` and returns their scale and zero point.
    static func quantize(_ values: UnsafePointer<Float>, count: Int, asymmetric: Bool,
                         into quantized: UnsafeMutablePointer<Int8>) -> HybridInputScale {
        // The asymmetric range always holds 0; the symmetric one starts from the first value.
        let (lo, hi, finite) = range(values, count: count, from: asymmetric || count == 0 ? 0 : values[0])
        let quantization = asymmetric ? HybridInputScale.asymmetric(minimum: lo, maximum: hi)
                                      : HybridInputScale.symmetric(minimum: lo, maximum: hi)
        // `zeroPoint + x * inverse` grows with `x`, so its extremes are those of `lo` and `hi`:
        // by the scale's construction they are near the int8 range, and the rounding below
        // needs them under 2^21. NaN and infinite inputs, an all-zero input (no scale) and a
        // subnormal scale take the reference, which handles them.
        guard finite, let quantization,
              case let zeroPoint = Float(quantization.scale.offset),
              max(abs(zeroPoint + lo * quantization.inverse), abs(zeroPoint + hi * quantization.inverse)) < 0x1p21
        else {
            return asymmetric ? asymmetricQuantizeFloats(values, count: count, into: quantized)
                              : symmetricQuantizeFloats(values, count: count, into: quantized)
        }
        // A plain loop of non-trapping scalar operations, which the compiler vectorises for the
        // variant's width: the same steps on SIMD types were compiled partly lane by lane.
        let inverse = quantization.inverse, lowest = Int32(quantization.lowest)
        for i in 0..<count {
            quantized[i] = roundedToInt8(zeroPoint + values[i] * inverse, lowest: lowest)
        }
        return quantization.scale
    }

    /// The smallest and largest of `start` and `count` values, as the reference's `min`/`max`
    /// chain from `start` finds them, and whether every value is finite (`x - x` is 0 for
    /// finite values, NaN for the others, and the NaN carries through the sum).
    private static func range(_ values: UnsafePointer<Float>, count: Int, from start: Float) -> (Float, Float, finite: Bool) {
        let lanes = FloatLanes.scalarCount
        var lo = start, hi = start
        var zeros: Float = 0
        var i = 0
        if count >= lanes {
            let source = UnsafeRawPointer(values)
            var low = FloatLanes(repeating: lo), high = low, laneZeros = FloatLanes()
            while i &+ lanes <= count {
                let v = source.loadUnaligned(fromByteOffset: i &* 4, as: FloatLanes.self)
                for l in 0..<lanes {
                    low[l] = Swift.min(low[l], v[l])
                    high[l] = Swift.max(high[l], v[l])
                }
                laneZeros += v - v
                i &+= lanes
            }
            for l in 0..<lanes {
                lo = Swift.min(lo, low[l])
                hi = Swift.max(hi, high[l])
            }
            zeros = laneZeros.sum()
        }
        while i < count {
            lo = Swift.min(lo, values[i])
            hi = Swift.max(hi, values[i])
            zeros += values[i] - values[i]
            i &+= 1
        }
        return (lo, hi, zeros == 0)
    }
}

/// `t` (finite, below 2^21 in magnitude) rounded half away from zero and clamped to
/// `lowest...127`: ``HybridQuantization/quantize(_:)`` without its zero point and scale, in
/// operations that do not trap. The fraction `f` left by truncation is exact, and so is `2f`,
/// whose truncation is the step away from zero (1 or -1 from a half on, else 0). The whole
/// float becomes an integer by adding `1.5 * 2^23` and reading the low bits.
@inline(__always)
private func roundedToInt8(_ t: Float, lowest: Int32) -> Int8 {
    let truncated = t.rounded(.towardZero)
    let fraction = t - truncated
    let magic: Float = 12_582_912
    let whole = Int32(bitPattern: (truncated + (fraction + fraction).rounded(.towardZero) + magic).bitPattern)
        &- Int32(bitPattern: magic.bitPattern)
    return Int8(truncatingIfNeeded: min(max(whole, lowest), 127))
}
