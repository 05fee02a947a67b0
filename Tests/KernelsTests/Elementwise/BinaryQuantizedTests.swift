import Testing
import Kernels

@Suite struct BinaryQuantizedTests {
    static let cases = QuantizedOpFixture.all(in: ["zoo_minmax_sqdiff_int8"])
        .filter { ["MAXIMUM", "MINIMUM", "SQUARED_DIFFERENCE"].contains($0.op) }

    @Test func fixturesArePresent() { #expect(Self.cases.count == 3) }

    @Test(arguments: cases)
    func matchesLiteRTBitExactly(_ f: QuantizedOpFixture) {
        let a = f.inputs[0]!, b = f.inputs[1]!, output = f.outputs[0]
        let actual = runBinary(Int8.self, a, b, outputCount: output.count) { x, y, o in
            switch f.op {
            case "MAXIMUM": Elementwise.Quantized.maximumMinimum(largest: true, x, shape: a.shape, y, shape: b.shape, output: o, outputShape: output.shape)
            case "MINIMUM": Elementwise.Quantized.maximumMinimum(largest: false, x, shape: a.shape, y, shape: b.shape, output: o, outputShape: output.shape)
            default:
                let p = QuantizedAddParams.makeSquaredDifference(input1: a.quantization, input2: b.quantization,
                                                                     output: output.quantization, qmin: -128, qmax: 127)
                Elementwise.Quantized.rescaledBinary(.squaredDifference, p, x, shape: a.shape, y, shape: b.shape, output: o, outputShape: output.shape)
            }
        }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }
}
