import Testing
import Kernels

@Suite struct DepthwiseConv2DQuantizedTests {
    static let cases = QuantizedOpFixture.ops("DEPTHWISE_CONV_2D", in: ["zoo_dwconv_int8"])

    @Test func fixturesArePresent() { #expect(Self.cases.count == 3) }

    @Test(arguments: cases)
    func matchesLiteRTBitExactly(_ f: QuantizedOpFixture) {
        let input = f.inputs[0]!, filter = f.inputs[1]!, output = f.outputs[0]
        let geometry = f.convolutionGeometry
        let params = QuantizedConvParams.make(geometry: geometry, input: input.quantization, filterScales: filter.scales.map(Float.init),
                                              filterZeroPoint: 0, output: output.quantization, outputChannels: filter.shape[3],
                                              activation: f.fusedActivation, qmin: -128, qmax: 127)!
        let bias = f.inputs[2]?.values(Int32.self)
        let actual = runBinary(Int8.self, input, filter, outputCount: output.count) { i, w, o in
            withOptionalPointer(bias) { b in
                DepthwiseConv2D.Quantized.reference(params, depthMultiplier: f.options["DepthMultiplier"], ConvOperands(input: i, inputShape: input.nhwc,
                                                    filter: w, filterShape: filter.nhwc, bias: b, output: o, outputShape: output.nhwc))
            }
        }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }
}
