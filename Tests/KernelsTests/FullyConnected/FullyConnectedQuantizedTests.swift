import Testing
import Kernels

@Suite struct FullyConnectedQuantizedTests {
    // The EfficientNet-Lite0 classifier slice includes the two outputs where LiteRT's result
    // needs single rounding (see QuantizedRounding).
    static let cases = QuantizedOpFixture.ops("FULLY_CONNECTED", in: ["zoo_fc_bmm_int8", "mobilenet_v2_int8",
                                                                       "efficientnet_lite0__chelsea_fc_rows"])
    static let batchMatMuls = QuantizedOpFixture.ops("BATCH_MATMUL", in: ["zoo_fc_bmm_int8"])

    @Test func fixturesArePresent() {
        #expect(Self.cases.count == 3)
        #expect(Self.batchMatMuls.count == 1)
    }

    @Test(arguments: cases)
    func fullyConnectedMatchesLiteRT(_ f: QuantizedOpFixture) {
        let input = f.inputs[0]!, filter = f.inputs[1]!, output = f.outputs[0]
        let params = QuantizedFullyConnectedParams.make(input: input.quantization, filterScales: filter.scales.map(Float.init),
                                                        filterZeroPoint: 0, output: output.quantization,
                                                        activation: f.fusedActivation, qmin: -128, qmax: 127, rounding: .single)!
        let depth = filter.shape[1], units = filter.shape[0]
        let bias = f.inputs.count > 2 ? f.inputs[2]?.values(Int32.self) : nil
        let actual = runBinary(Int8.self, input, filter, outputCount: output.count) { i, w, o in
            withOptionalPointer(bias) { b in
                FullyConnected.Quantized.reference(params, input: i, batches: input.count / depth, inputDepth: depth,
                                                   filter: w, outputDepth: units, bias: b, output: o)
            }
        }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }

    @Test(arguments: batchMatMuls)
    func batchMatMulMatchesLiteRT(_ f: QuantizedOpFixture) {
        let lhs = f.inputs[0]!, rhs = f.inputs[1]!, output = f.outputs[0]
        let params = QuantizedFullyConnectedParams.make(input: lhs.quantization, filterScales: [rhs.scale],
                                                        filterZeroPoint: rhs.zeroPoint, output: output.quantization,
                                                        activation: .none, qmin: -128, qmax: 127, rounding: .double)!
        let (batches, rows, depth) = (lhs.shape[0], lhs.shape[1], lhs.shape[2])
        let adjY = f.options["AdjY"] == 1
        let columns = adjY ? rhs.shape[1] : rhs.shape[2]
        let actual = runBinary(Int8.self, lhs, rhs, outputCount: output.count) { l, r, o in
            BatchMatMul.Quantized.reference(params, lhs: l, lhsBatchStride: rows * depth,
                                            rhs: r, rhsBatchStride: depth * columns,
                                            rhsRowStride: adjY ? 1 : columns, rhsColumnStride: adjY ? depth : 1,
                                            batches: batches, rows: rows, depth: depth, columns: columns, output: o)
        }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }
}
