#if TFLITE_ISA_MODULE
import Kernels
#endif
/// Optimised int8 MEAN over a block of adjacent axes with kept axes after it, the input seen as
/// `[outer, rows, inner]` (a global average pool's `[1, H * W, C]`), prepared once per node and
/// bit-exact with `Reduce.Quantized.meanOrSum`: each column of `rows` values summed in int32
/// lanes, ``int8LaneCount`` columns at a time, then requantised by the convolutions'
/// requantiser with the input zero point's `rows` copies folded into the bias.
struct Int8MeanKernel {
    let outer: Int, rows: Int, inner: Int
    let output: Int8Requantization

    /// Nil for an empty reduction, or a rescale outside the requantiser's range (those take
    /// the reference kernel).
    init?(_ params: QuantizedMeanSumParams, outer: Int, rows: Int, inner: Int) {
        guard rows > 0, inner > 0,
              let output = Int8Requantization(foldedBias: [Int32](repeating: 0 &- params.input.zeroPoint &* Int32(truncatingIfNeeded: rows),
                                                                  count: int8LaneCount),
                                              multipliers: [params.meanMultiplier(count: rows)], outputOffset: params.output.zeroPoint,
                                              activation: ActivationRange(min: -128, max: 127))
        else { return nil }
        self.outer = outer
        self.rows = rows
        self.inner = inner
        self.output = output
    }

    /// Columns summed at once: four vectors of sums stay in registers down all the rows.
    static let blockVectors = 4

    /// The MEAN of `input` into `out`, on the calling thread: a global average pool is a few
    /// microseconds of work.
    func run(_ input: UnsafePointer<Int8>, output out: UnsafeMutablePointer<Int8>) {
        let lanes = int8LaneCount
        output.withRequantizer { requantizer in
            withUnsafeTemporaryAllocation(of: Int32Lanes.self, capacity: Self.blockVectors) { block in
                let sums = block.baseAddress!
                /// Requantises the first `vectors` sums to `count` outputs each at `o`.
                @inline(__always) func store(_ vectors: Int, to o: UnsafeMutablePointer<Int8>, count: Int) {
                    requantizer.store(rows: UnsafeRawPointer(sums), sumStride: MemoryLayout<Int32Lanes>.stride, rowCount: vectors,
                                      group: 0, to: o, outStride: lanes, count: count)
                }
                for o in 0..<outer {
                    let x = input + o &* rows &* inner, y = out + o &* inner
                    var c = 0
                    while c &+ Self.blockVectors &* lanes <= inner {
                        var s0 = Int32Lanes(), s1 = Int32Lanes(), s2 = Int32Lanes(), s3 = Int32Lanes()
                        var p = UnsafeRawPointer(x + c)
                        for _ in 0..<rows {
                            s0 &+= loadInt8AsInt32(p)
                            s1 &+= loadInt8AsInt32(p + lanes)
                            s2 &+= loadInt8AsInt32(p + 2 &* lanes)
                            s3 &+= loadInt8AsInt32(p + 3 &* lanes)
                            p += inner
                        }
                        sums[0] = s0; sums[1] = s1; sums[2] = s2; sums[3] = s3
                        store(Self.blockVectors, to: y + c, count: lanes)
                        c &+= Self.blockVectors &* lanes
                    }
                    while c &+ lanes <= inner {
                        var s = Int32Lanes(), p = UnsafeRawPointer(x + c)
                        for _ in 0..<rows {
                            s &+= loadInt8AsInt32(p)
                            p += inner
                        }
                        sums[0] = s
                        store(1, to: y + c, count: lanes)
                        c &+= lanes
                    }
                    if c < inner {
                        // The last columns, fewer than a vector, one by one; the lanes past them
                        // are requantised but not stored.
                        var s = Int32Lanes()
                        for j in 0..<(inner &- c) {
                            var sum: Int32 = 0
                            for r in 0..<rows { sum &+= Int32(x[r &* inner &+ c &+ j]) }
                            s[j] = sum
                        }
                        sums[0] = s
                        store(1, to: y + c, count: inner &- c)
                    }
                }
            }
        }
    }
}
