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
                    quantizedArgMinMax(isMax: f.op == "ARG_MAX", input: i.baseAddress!, outer: outer,
                                       axisSize: input.shape[axis], inner: inner, output: o.baseAddress!)
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
                    quantizedSumFloatRescale(p, input: i, inputShape: input.shape, reduced: mask, output: o, outputCount: n,
                                             sums: sums.pointer)
                } else {
                    quantizedMeanOrSum(p, computeSum: f.op == "SUM", input: i, inputShape: input.shape, reduced: mask,
                                       output: o, outputCount: n, sums: sums.pointer)
                }
            }
        case "REDUCE_MAX":
            actual = runUnary(Int8.self, input, outputCount: n) { quantizedReduceMax(input: $0, inputShape: input.shape, reduced: mask, output: $1, outputCount: n) }
        case "REDUCE_MIN":
            actual = runUnary(Int8.self, input, outputCount: n) { quantizedReduceMin(input: $0, inputShape: input.shape, reduced: mask, output: $1, outputCount: n) }
        default:
            let count = input.count / n
            let p = QuantizedReduceProdParams(input: input.quantization, output: output.quantization, count: count)
            let products = TestBuffer(repeating: Int64(0), count: n)
            actual = runUnary(Int8.self, input, outputCount: n) {
                quantizedReduceProd(p, input: $0, inputShape: input.shape, reduced: mask, output: $1, outputCount: n, products: products.pointer)
            }
        }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }
}
