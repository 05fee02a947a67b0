import Testing
import Kernels

@Suite struct TransposeConvQuantizedTests {
    static let cases = QuantizedOpFixture.ops("TRANSPOSE_CONV", in: ["zoo_tconv_int8"])

    @Test func fixturesArePresent() { #expect(Self.cases.count == 2) }

    @Test(arguments: cases)
    func matchesLiteRTBitExactly(_ f: QuantizedOpFixture) {
        let filter = f.inputs[1]!, input = f.inputs[2]!, output = f.outputs[0]
        // TFLite pads a transposed convolution like the forward convolution from its output
        // back to its input.
        let (sh, sw) = (f.options["StrideH"], f.options["StrideW"])
        let forward = ConvGeometry.make(padding: f.padding, inputHeight: output.shape[1], inputWidth: output.shape[2],
                                        filterHeight: filter.shape[1], filterWidth: filter.shape[2],
                                        strideHeight: sh, strideWidth: sw)!.geometry
        let params = QuantizedConvParams.make(geometry: forward, input: input.quantization, filterScales: filter.scales.map(Float.init),
                                              filterZeroPoint: 0, output: output.quantization, outputChannels: filter.shape[0],
                                              activation: f.fusedActivation, qmin: -128, qmax: 127)!
        let bias = f.inputs.count > 3 ? f.inputs[3]?.values(Int32.self) : nil
        var scratch = [Int32](repeating: 0, count: output.count)
        let actual = runBinary(Int8.self, input, filter, outputCount: output.count) { i, w, o in
            withOptionalPointer(bias) { b in
                scratch.withUnsafeMutableBufferPointer { s in
                    TransposeConv.Quantized.reference(params, ConvOperands(input: i, inputShape: input.nhwc, filter: w, filterShape: filter.nhwc,
                                                      bias: b, output: o, outputShape: output.nhwc), scratch: s.baseAddress!)
                }
            }
        }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }
}
