#if TFLITE_ISA_MODULE
import Kernels
#endif
/// Optimised int8 ADD of two tensors of the same shape (no broadcasting), prepared once per
/// node, bit-exact with `Elementwise.Quantized.rescaledBinary`.
///
/// TFLite brings each input to the common scale with a 64-bit doubling high multiply and a
/// rounding shift (``InputRescale``), sums, and requantises the sum to the output. Here each
/// input's rescale is two 32-bit multiplies, a shift and adds (the inputs are 8-bit, so the
/// 64-bit product splits exactly), and the sums go through the convolutions' requantiser
/// (``Int8Requantizer``), whose single-rounding form does the output's two roundings at once.
struct Int8AddKernel {
    /// One input's rescale `floor((v * 2^L * m + 2^30 + [e > 0] (2^(30 + e) - [v < 0] 2^31)) / 2^(31 + e))`
    /// for `v = x - zeroPoint`, the multiplier `m` and right shift `e`, and the left shift `L`
    /// (the requantiser's single-rounding form of TFLite's high multiply and rounding shift).
    /// Every term carries `2^L`, so it is `floor((v * m + K) / 2^R)` with `R = 31 + e - L`
    /// and `K = 2^(30 - L) + [e > 0] (2^(R - 1) - [v < 0] 2^(31 - L))`. Splitting
    /// `m = high * 2^R + low` (`low < 2^R`), the floor of a sum whose first term is a whole
    /// multiple of `2^R` is `v * high + ((v * low + K) >> R)`. With `|v| <= 255`, `v * high`
    /// stays below `255 * 2^(L - e)` and `v * low + K` below `2^(R + 8)`: both fit int32
    /// when `L <= 23` and `R <= 23`.
    struct InputRescale {
        let offset: Int32, high: Int32, low: Int32
        /// `K` for `v >= 0`, and what a negative `v` adds to it.
        let addend: Int32, negativeAddend: Int32
        let shift: Int32

        init?(offset: Int32, multiplier q: QuantizedMultiplier, leftShift: Int) {
            let e = -q.shift, r = 31 + e - leftShift
            guard q.multiplier >= 0, e >= 0, (0...23).contains(leftShift), r <= 23 else { return nil }
            self.offset = offset
            high = q.multiplier >> Int32(r)
            low = q.multiplier & (Int32(1) << Int32(r) - 1)
            addend = Int32(1) << Int32(30 - leftShift) + (e > 0 ? Int32(1) << Int32(r - 1) : 0)
            negativeAddend = e > 0 ? -(Int32(1) << Int32(31 - leftShift)) : 0
            shift = Int32(r)
        }

        /// The rescaled values of ``int8LaneCount`` inputs at `p`.
        @inline(__always)
        func callAsFunction(_ p: UnsafePointer<Int8>) -> Int32Lanes {
            let v = loadInt8AsInt32(UnsafeRawPointer(p)) &+ offset
            let t = v &* low &+ addend &+ ((v &>> 31) & negativeAddend)
            return v &* high &+ (t &>> shift)
        }
    }

    let params: QuantizedAddParams
    let first: InputRescale, second: InputRescale
    /// The output's rescale, zero point and clamp, the same for every lane.
    let output: Int8Requantization

    /// Nil where a rescale falls outside the exact 32-bit form (an input scale more than 2^12
    /// times smaller than the other) or the requantiser's range: those take the reference kernel.
    init?(_ params: QuantizedAddParams) {
        guard let first = InputRescale(offset: params.input1Offset, multiplier: params.input1Multiplier, leftShift: params.leftShift),
              let second = InputRescale(offset: params.input2Offset, multiplier: params.input2Multiplier, leftShift: params.leftShift),
              let output = Int8Requantization(foldedBias: [Int32](repeating: 0, count: int8LaneCount),
                                              multipliers: [params.outputMultiplier], outputOffset: params.outputOffset,
                                              activation: params.activation)
        else { return nil }
        self.params = params
        self.first = first
        self.second = second
        self.output = output
    }

    /// Vectors of sums handed to the requantiser at once, so that its constants are loaded
    /// once per block: at most 1 KiB, which `withUnsafeTemporaryAllocation` keeps on the
    /// stack (a larger block was allocated on the heap at every run).
    static let blockVectors = 1024 / MemoryLayout<Int32Lanes>.stride

    /// What one element counts for in ``ThreadPool/minimumParallelWork`` (about a microsecond
    /// of work): two rescales and a requantisation take about 0.36 ns per element on one thread
    /// (1.7 us for the 4,704 elements of MobileNet v2's 14x14x24 residual ADD), so outputs of
    /// 2,731 elements and more split, where the elementwise default split from 8,192.
    static let workPerElement = 3 * ThreadPool.workPerElement

    /// Adds `count` elements of `a` and `b` into `output`, split across `pool` when large.
    func run(_ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>, output out: UnsafeMutablePointer<Int8>, count: Int,
             pool: ThreadPool?) {
        let lanes = int8LaneCount, vectors = count / lanes
        output.withRequantizer { requantizer in
            ThreadPool.split(pool, count: vectors, work: count * Self.workPerElement) { range in
                withUnsafeTemporaryAllocation(of: Int32Lanes.self, capacity: Self.blockVectors) { block in
                    let sums = block.baseAddress!
                    var v = range.lowerBound
                    while v < range.upperBound {
                        let n = Swift.min(Self.blockVectors, range.upperBound &- v)
                        for j in 0..<n {
                            let i = (v &+ j) &* lanes
                            sums[j] = first(a + i) &+ second(b + i)
                        }
                        requantizer.store(rows: UnsafeRawPointer(sums), sumStride: MemoryLayout<Int32Lanes>.stride, rowCount: n,
                                          group: 0, to: out + v &* lanes, outStride: lanes, count: lanes)
                        v &+= n
                    }
                }
            }
        }
        // The last partial vector takes the scalar formula.
        for i in (vectors * lanes)..<count {
            let x = params.rescaled(Int32(a[i]), offset: params.input1Offset, params.input1Multiplier)
            let y = params.rescaled(Int32(b[i]), offset: params.input2Offset, params.input2Multiplier)
            out[i] = Int8(clampedQuantized: params.output(x &+ y))
        }
    }
}
