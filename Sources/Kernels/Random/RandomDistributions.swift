#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The distributions of LiteRT's RANDOM_UNIFORM, RANDOM_STANDARD_NORMAL and MULTINOMIAL, drawn
/// from a `Philox` stream in the order and with the bit manipulations TensorFlow uses, so that
/// a seeded op reproduces LiteRT's numbers.
public enum RandomDistributions {
    /// A float in [0, 1) from the low 23 bits of `x` (a mantissa under exponent 0, minus one).
    @inline(__always)
    public static func unitFloat(_ x: UInt32) -> Float {
        Float(bitPattern: 127 << 23 | x & 0x7F_FFFF) - 1
    }

    /// A double in [0, 1) from 52 bits: 20 of `high`, all of `low`.
    @inline(__always)
    public static func unitDouble(_ high: UInt32, _ low: UInt32) -> Double {
        Double(bitPattern: 1023 << 52 | UInt64(high & 0xF_FFFF) << 32 | UInt64(low)) - 1
    }

    /// `count` uniform floats in [0, 1); each block of four words gives four values and a
    /// partial block's remainder is discarded.
    public static func uniform(_ rng: inout Philox, output: UnsafeMutablePointer<Float>, count: Int) {
        var i = 0
        while i < count {
            let w = rng.next()
            output[i] = unitFloat(w.0)
            if i + 1 < count { output[i + 1] = unitFloat(w.1) }
            if i + 2 < count { output[i + 2] = unitFloat(w.2) }
            if i + 3 < count { output[i + 3] = unitFloat(w.3) }
            i += 4
        }
    }

    /// `count` standard normal floats by the Box-Muller transform, two per pair of words.
    /// With an odd count the last pair's second value is dropped.
    public static func standardNormal(_ rng: inout Philox, output: UnsafeMutablePointer<Float>, count: Int) {
        var i = 0
        while i < count {
            let w = rng.next()
            let (a, b) = boxMuller(w.0, w.1)
            output[i] = a
            if i + 1 < count { output[i + 1] = b }
            if i + 2 < count {
                let (c, d) = boxMuller(w.2, w.3)
                output[i + 2] = c
                if i + 3 < count { output[i + 3] = d }
            }
            i += 4
        }
    }

    @inline(__always)
    static func boxMuller(_ x0: UInt32, _ x1: UInt32) -> (Float, Float) {
        let u1 = max(unitFloat(x0), 1.0e-7)
        let v1 = 2 * Float.pi * unitFloat(x1)
        let radius = (-2 * logf(u1)).squareRoot()
        return (sinf(v1) * radius, cosf(v1) * radius)
    }

    /// `samples` class indices per row of `logits` (`batch` rows of `classes`), drawn in
    /// proportion to the softmax of the finite logits. As in TensorFlow's kernel the draws
    /// come from a copy of the stream, which itself skips ahead by a fixed budget per call.
    public static func multinomial<Index: FixedWidthInteger>(
        _ rng: inout Philox, logits: UnsafePointer<Float>, batch: Int, classes: Int, samples: Int,
        output: UnsafeMutablePointer<Index>) {
        var draws = rng
        rng.skip(UInt64(batch) &* UInt64((samples + 3) / 4 * 4) &* 512)
        var block = (UInt32(0), UInt32(0), UInt32(0), UInt32(0)), used = 4
        withUnsafeTemporaryAllocation(of: Double.self, capacity: classes) { cdf in
            for row in 0..<batch {
                let l = logits + row * classes
                var peak = -Float.greatestFiniteMagnitude
                for i in 0..<classes where l[i].isFinite { peak = max(peak, l[i]) }
                var total = 0.0
                for i in 0..<classes {
                    if l[i].isFinite { total += exp(Double(l[i]) - Double(peak)) }
                    cdf[i] = total
                }
                for j in 0..<samples {
                    if used == 4 {
                        block = draws.next()
                        used = 0
                    }
                    let (x0, x1) = used == 0 ? (block.0, block.1) : (block.2, block.3)
                    used += 2
                    let target = unitDouble(x0, x1) * total
                    // The first class whose cumulative weight exceeds the target.
                    var lo = 0, hi = classes
                    while lo < hi {
                        let mid = (lo + hi) / 2
                        if cdf[mid] > target { hi = mid } else { lo = mid + 1 }
                    }
                    output[row * samples + j] = Index(lo)
                }
            }
        }
    }
}
