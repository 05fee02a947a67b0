import Testing
import Kernels

/// Dynamic-range ("hybrid") kernels: float activations, int8 weights, checked against the
/// operators of the corpus' `mobilenet_v2_dynamic` model with LiteRT's own inputs.
@Suite struct HybridInt8Tests {
    static let cases = QuantizedOpFixture.all(in: ["mobilenet_v2_dynamic__chelsea"])

    @Test func fixturesArePresent() { #expect(Self.cases.count == 3) }

    @Test(arguments: cases)
    func matchesLiteRTExactly(_ f: QuantizedOpFixture) {
        let input = f.inputs[0]!, filter = f.inputs[1]!, output = f.outputs[0]
        let geometry = f.convolutionGeometry
        let params = HybridConvParams(geometry: geometry, filterScales: filter.scales.map(Float.init),
                                      activation: f.fusedActivation.floatRange!,
                                      // LiteRT's per-channel hybrid convolutions always quantise inputs asymmetrically.
                                      asymmetricInputs: true)
        let bias = f.inputs[2]?.floats
        var out = [Float](repeating: 0, count: output.count)
        var scratch = [Int8](repeating: 0, count: hybridScratchCount(batches: input.nhwc.batch, batchSize: input.count / input.nhwc.batch))
        input.floats.withUnsafeBufferPointer { i in filter.values(Int8.self).withUnsafeBufferPointer { w in
            withOptionalPointer(bias) { b in
                scratch.withUnsafeMutableBufferPointer { s in out.withUnsafeMutableBufferPointer { o in
                    if f.op == "DEPTHWISE_CONV_2D" {
                        DepthwiseConv2D.Hybrid.reference(params, depthMultiplier: f.options["DepthMultiplier"], ConvOperands(input: i.baseAddress!, inputShape: input.nhwc,
                                                         filter: w.baseAddress!, filterShape: filter.nhwc, bias: b, output: o.baseAddress!,
                                                         outputShape: output.nhwc), scratch: s.baseAddress!)
                    } else {
                        Conv2D.Hybrid.reference(params, ConvOperands(input: i.baseAddress!, inputShape: input.nhwc, filter: w.baseAddress!, filterShape: filter.nhwc,
                                                bias: b, output: o.baseAddress!, outputShape: output.nhwc), scratch: s.baseAddress!)
                    }
                }}
            }
        }}
        let golden = output.floats
        let differing = zip(out, golden).filter { $0 != $1 }.count
        let maxAbs = zip(out, golden).map { abs($0 - $1) }.max() ?? 0
        #expect(differing == 0, "\(f): \(differing) of \(golden.count) differ, max |diff| \(maxAbs)")
    }
}
