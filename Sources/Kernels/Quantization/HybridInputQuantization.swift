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
    let range = max(abs(lo), abs(hi))
    if range == 0 {
        quantized.update(repeating: 0, count: count)
        return HybridInputScale(scale: 1, offset: 0)
    }
    let inverse = 127 / range
    for i in 0..<count {
        let q = (values[i] * inverse).rounded(.toNearestOrAwayFromZero)
        quantized[i] = Int8(min(127, max(-127, q)))
    }
    return HybridInputScale(scale: range / 127, offset: 0)
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
    let (rmin, rmax) = (Double(lo), Double(hi))
    if rmin == rmax {
        quantized.update(repeating: 0, count: count)
        return HybridInputScale(scale: 1, offset: 0)
    }
    let (qmin, qmax) = (-128.0, 127.0)
    let scale = (rmax - rmin) / (qmax - qmin)
    let fromMin = qmin - rmin / scale, fromMax = qmax - rmax / scale
    let errorMin = abs(qmin) + abs(rmin / scale), errorMax = abs(qmax) + abs(rmax / scale)
    let zero = errorMin < errorMax ? fromMin : fromMax
    // A non-finite zero point (from non-finite inputs) is taken as 0 rather than trapping.
    let offset: Int32 = !zero.isFinite ? 0 : zero <= qmin ? -128 : zero >= qmax ? 127 : Int32(zero.rounded(.toNearestOrAwayFromZero))
    let scaleFloat = Float(scale)
    let inverse = 1 / scaleFloat
    for i in 0..<count {
        let q = (Float(offset) + values[i] * inverse).rounded(.toNearestOrAwayFromZero)
        quantized[i] = Int8(min(127, max(-128, q)))
    }
    return HybridInputScale(scale: scaleFloat, offset: offset)
}
