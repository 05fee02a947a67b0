import Testing
import Kernels

@Suite struct SoftmaxQuantizedTests {
    static let cases = QuantizedOpFixture.ops("SOFTMAX", in: ["zoo_softmax_int8", "zoo_softmax_beta_int8"])

    @Test func fixturesArePresent() { #expect(Self.cases.count == 2) }

    @Test(arguments: cases)
    func matchesLiteRTBitExactly(_ f: QuantizedOpFixture) {
        let input = f.inputs[0]!, output = f.outputs[0]
        let p = QuantizedSoftmaxParams(inputScale: input.scale, beta: f.options.float("Beta"), output: output.quantization)
        let depth = input.shape.last!
        let actual = runUnary(Int8.self, input, outputCount: output.count) {
            quantizedSoftmax(p, input: $0, output: $1, rows: input.count / depth, depth: depth)
        }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }
}
