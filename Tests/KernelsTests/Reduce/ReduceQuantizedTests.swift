import TestSupport
import Testing
import Kernels

@Suite struct ReduceQuantizedTests {
    static let cases = QuantizedOpFixture.all(in: ["zoo_reduce_int8", "mobilenet_v2_int8", "zoo_argminmax_int8"])
        .filter { ["MEAN", "SUM", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD", "ARG_MAX", "ARG_MIN"].contains($0.op) }

    @Test func fixturesArePresent() { #expect(Self.cases.count == 8) }

    @Test(arguments: cases)
    func matchesLiteRTBitExactly(_ f: QuantizedOpFixture) {
        let input = f.inputs[0]!, output = f.outputs[0]
        let axes = f.inputs[1]!.values(Int.self)
        let mask = reductionMask(rank: input.shape.count, axes: axes)!
        let n = output.count
        let actual: [Int64]
        switch f.op {
        case "ARG_MAX", "ARG_MIN":
            let axis = axes[0] < 0 ? axes[0] + input.shape.count : axes[0]
            let outer = input.shape[..<axis].reduce(1, *), inner = input.shape[(axis + 1)...].reduce(1, *)
            var out = [Int64](repeating: 0, count: n)
            input.values(Int8.self).withUnsafeBufferPointer { i in
                out.withUnsafeMutableBufferPointer { o in
                    // The runtime's kernel: stored int8 values order as the real ones do.
                    if f.op == "ARG_MAX" {
                        ArgMinMax.argMax(input: i.baseAddress!, outer: outer, axisSize: input.shape[axis], inner: inner, output: o.baseAddress!)
                    } else {
                        ArgMinMax.argMin(input: i.baseAddress!, outer: outer, axisSize: input.shape[axis], inner: inner, output: o.baseAddress!)
                    }
                }
            }
            actual = out
        case "MEAN", "SUM":
            let p = QuantizedMeanSumParams(input: input.quantization, output: output.quantization)
            // The zoo_reduce_int8 golden comes from LiteRT's optimised kernels (see the corpus
            // README); SUM there rescales in float.
            let optimisedSum = f.op == "SUM" && f.model == "zoo_reduce_int8"
            let sums = TestBuffer(repeating: Int32(0), count: n)
            actual = runUnary(Int8.self, input, outputCount: n) { i, o in
                if optimisedSum {
                    Reduce.Quantized.sumFloatRescale(p, input: i, inputShape: input.shape, reduced: mask, output: o, outputCount: n,
                                                     sums: sums.pointer)
                } else {
                    Reduce.Quantized.meanOrSum(p, computeSum: f.op == "SUM", input: i, inputShape: input.shape, reduced: mask,
                                               output: o, outputCount: n, sums: sums.pointer)
                }
            }
        case "REDUCE_MAX":
            actual = runUnary(Int8.self, input, outputCount: n) { Reduce.Quantized.maximumMinimum(largest: true, input: $0, inputShape: input.shape, reduced: mask, output: $1, outputCount: n) }
        case "REDUCE_MIN":
            actual = runUnary(Int8.self, input, outputCount: n) { Reduce.Quantized.maximumMinimum(largest: false, input: $0, inputShape: input.shape, reduced: mask, output: $1, outputCount: n) }
        default:
            let count = input.count / n
            let p = QuantizedReduceProdParams(input: input.quantization, output: output.quantization, count: count)
            let products = TestBuffer(repeating: Int64(0), count: n)
            actual = runUnary(Int8.self, input, outputCount: n) {
                Reduce.Quantized.product(p, input: $0, inputShape: input.shape, reduced: mask, output: $1, outputCount: n, products: products.pointer)
            }
        }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }

    /// REDUCE_MAX and SUM against a per-element walk of the output index, over random ranks
    /// (0 to 4), extents and reduced axes: the reduction walker visits every element once and
    /// maps it to the right output, whether the innermost axis is kept or reduced.
    @Test func reductionsMatchBruteForce() {
        var rng = SplitMix64(seed: 61)
        for _ in 0..<200 {
            let shape = (0..<Int.random(in: 0...4, using: &rng)).map { _ in Int.random(in: 1...6, using: &rng) }
            let mask = shape.map { _ in Bool.random(using: &rng) }
            let input = (0..<shape.reduce(1, *)).map { _ in Int8.random(in: -128...127, using: &rng) }
            let outCount = zip(shape, mask).reduce(1) { $1.1 ? $0 : $0 * $1.0 }
            var wantMax = [Int8](repeating: .min, count: outCount), wantSum = [Int32](repeating: 0, count: outCount)
            for i in 0..<input.count {
                let o = reducedIndex(i, shape: shape, reduced: mask)
                wantMax[o] = max(wantMax[o], input[i])
                wantSum[o] += Int32(input[i])
            }
            var gotMax = [Int8](repeating: 0, count: outCount), gotSum = [Int8](repeating: 0, count: outCount)
            let sums = TestBuffer(repeating: Int32(0), count: outCount)
            // Scale 1 in and out, zero points 0: SUM's output is its int32 sum saturated to int8.
            let unit = AffineQuantization(scale: 1, zeroPoint: 0)
            input.withUnsafeBufferPointer { i in
                gotMax.withUnsafeMutableBufferPointer {
                    Reduce.Quantized.maximumMinimum(largest: true, input: i.baseAddress!, inputShape: shape, reduced: mask, output: $0.baseAddress!, outputCount: outCount)
                }
                gotSum.withUnsafeMutableBufferPointer {
                    Reduce.Quantized.meanOrSum(QuantizedMeanSumParams(input: unit, output: unit), computeSum: true, input: i.baseAddress!,
                                               inputShape: shape, reduced: mask, output: $0.baseAddress!, outputCount: outCount, sums: sums.pointer)
                }
            }
            #expect(gotMax == wantMax, "\(shape) \(mask)")
            #expect(gotSum == wantSum.map { Int8(clamping: $0) }, "\(shape) \(mask)")
        }
    }
}
