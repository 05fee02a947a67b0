import Testing
import Kernels

@Suite struct L2NormalizationInt8Tests {
    static let cases = QuantizedOpFixture.ops("L2_NORMALIZATION", in: ["zoo_l2norm_int8"])

    @Test func fixturesArePresent() { #expect(Self.cases.count == 1) }

    @Test(arguments: cases)
    func matchesLiteRTBitExactly(_ f: QuantizedOpFixture) {
        let input = f.inputs[0]!, output = f.outputs[0]
        let depth = input.shape.last!
        let actual = runUnary(Int8.self, input, outputCount: output.count) {
            L2Normalization.Quantized.reference(inputZeroPoint: input.zeroPoint, input: $0, output: $1, rows: input.count / depth, depth: depth)
        }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }
}
