#if TFLITE_ISA_MODULE
import Kernels
#endif
extension Elementwise.Quantized {
    /// Optimised int8 ADD of two tensors of the same shape (no broadcasting): `int8LaneCount`
    /// elements at a time with the lane forms of the fixed-point steps (`rescaled` of each input,
    /// the sum, `output`), bit-exact with `Elementwise.Quantized.rescaledBinary`. The last partial vector takes the
    /// scalar formula. Large tensors are split across `pool`.
    static func addOptimized(_ params: QuantizedAddParams, _ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>,
                             output: UnsafeMutablePointer<Int8>, count: Int, pool: ThreadPool? = nil) {
        let lanes = int8LaneCount
        // Every multiplier here is below one, so each rescale is a doubling high multiply followed
        // by a rounding right shift of `-shift`.
        func vectors(_ m: QuantizedMultiplier) -> (multiplier: Int32Lanes, shift: Int32Lanes, mask: Int32Lanes) {
            let exponent = Int32(-m.shift)
            return (Int32Lanes(repeating: m.multiplier), Int32Lanes(repeating: exponent),
                    Int32Lanes(repeating: Int32(truncatingIfNeeded: (Int64(1) << exponent) - 1)))
        }
        let m1 = vectors(params.input1Multiplier), m2 = vectors(params.input2Multiplier), mo = vectors(params.outputMultiplier)
        let offset1 = Int32Lanes(repeating: params.input1Offset), offset2 = Int32Lanes(repeating: params.input2Offset)
        let outputOffset = Int32Lanes(repeating: params.outputOffset)
        let scale = Int32Lanes(repeating: 1 << Int32(params.leftShift))
        let (lo, hi) = (params.activation.min, params.activation.max)
        // Multipliers below one are never Int32.min, the one input that needs saturation.
        let saturates = [params.input1Multiplier, params.input2Multiplier, params.outputMultiplier].contains { $0.multiplier == .min }
        @inline(__always) func highMul(_ x: Int32Lanes, _ m: Int32Lanes) -> Int32Lanes {
            saturates ? saturatingRoundingDoublingHighMul(x, m) : roundingDoublingHighMul(x, m)
        }
        /// Elements `range`; only the last range may end inside a vector.
        @inline(__always) func elements(_ range: Range<Int>) {
            var i = range.lowerBound
            while i + lanes <= range.upperBound {
                let x = loadInt8AsInt32(UnsafeRawPointer(a + i)) &+ offset1
                let y = loadInt8AsInt32(UnsafeRawPointer(b + i)) &+ offset2
                // (x + offset) * 2^leftShift stays below 2^28 in magnitude.
                let xs = roundingDivideByPOT(highMul(x &* scale, m1.multiplier), m1.shift, mask: m1.mask)
                let ys = roundingDivideByPOT(highMul(y &* scale, m2.multiplier), m2.shift, mask: m2.mask)
                let sum = roundingDivideByPOT(highMul(xs &+ ys, mo.multiplier), mo.shift, mask: mo.mask)
                UnsafeMutableRawPointer(output + i).storeBytes(of: clampedToInt8(sum &+ outputOffset, lo, hi), as: Int8Lanes.self)
                i += lanes
            }
            while i < range.upperBound {
                let x = params.rescaled(Int32(a[i]), offset: params.input1Offset, params.input1Multiplier)
                let y = params.rescaled(Int32(b[i]), offset: params.input2Offset, params.input2Multiplier)
                output[i] = Int8(clampedQuantized: params.output(x &+ y))
                i += 1
            }
        }
        ThreadPool.split(pool, count: (count + lanes - 1) / lanes, work: count * ThreadPool.workPerElement) { vectors in
            elements((vectors.lowerBound * lanes)..<min(count, vectors.upperBound * lanes))
        }
    }
}
