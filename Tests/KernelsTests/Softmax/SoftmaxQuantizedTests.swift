import Testing
import Kernels

@Suite struct SoftmaxQuantizedTests {
    static let cases = QuantizedOpFixture.ops("SOFTMAX", in: ["zoo_softmax_int8", "zoo_softmax_beta_int8",
                                                                 "mobilenet_v2_int8", "efficientnet_lite0__chelsea"])

    @Test func fixturesArePresent() { #expect(Self.cases.count == 4) }

    @Test(arguments: cases)
    func matchesLiteRTBitExactly(_ f: QuantizedOpFixture) {
        let input = f.inputs[0]!, output = f.outputs[0]
        let p = QuantizedSoftmaxParams(inputScale: input.scale, beta: f.options.float("Beta"), output: output.quantization)
        let depth = input.shape.last!
        let rows = input.count / depth
        let actual = input.dtype == "uint8"
            ? runUnary(UInt8.self, input, outputCount: output.count) { Softmax.Quantized.reference(p, input: $0, output: $1, rows: rows, depth: depth) }
            : runUnary(Int8.self, input, outputCount: output.count) { Softmax.Quantized.reference(p, input: $0, output: $1, rows: rows, depth: depth) }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }
}

@Suite struct LogSoftmaxInt8Tests {
    static let cases = QuantizedOpFixture.ops("LOG_SOFTMAX", in: ["zoo_softmax_int8"])

    @Test func fixturesArePresent() { #expect(Self.cases.count == 1) }

    @Test(arguments: cases)
    func matchesLiteRTBitExactly(_ f: QuantizedOpFixture) {
        let input = f.inputs[0]!, output = f.outputs[0]
        let depth = input.shape.last!
        let p = Int8LogSoftmaxParams(inputScale: input.scale)
        let actual = runUnary(Int8.self, input, outputCount: output.count) {
            Softmax.Quantized.logSoftmax(p, input: $0, output: $1, rows: input.count / depth, depth: depth)
        }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }
}
