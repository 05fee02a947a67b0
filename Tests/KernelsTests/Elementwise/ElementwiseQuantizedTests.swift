import Testing
import Kernels

@Suite struct ElementwiseQuantizedTests {
    static let cases = QuantizedOpFixture.ops("ADD", in: ["zoo_add_sub_mul_bcast_int8"])
        + QuantizedOpFixture.ops("SUB", in: ["zoo_add_sub_mul_bcast_int8"])
        + QuantizedOpFixture.ops("MUL", in: ["zoo_add_sub_mul_bcast_int8", "zoo_reshape_transpose_int8"])

    @Test func fixturesArePresent() { #expect(Self.cases.count == 7) }

    @Test(arguments: cases)
    func matchesLiteRTBitExactly(_ f: QuantizedOpFixture) {
        let a = f.inputs[0]!, b = f.inputs[1]!, output = f.outputs[0]
        let actual = runBinary(Int8.self, a, b, outputCount: output.count) { x, y, o in
            switch f.op {
            case "MUL":
                let p = QuantizedMulParams.make(input1: a.quantization, input2: b.quantization, output: output.quantization,
                                                activation: f.fusedActivation, qmin: -128, qmax: 127)!
                quantizedMul(p, x, shape: a.shape, y, shape: b.shape, output: o, outputShape: output.shape)
            default:
                let p = QuantizedAddParams.make(input1: a.quantization, input2: b.quantization, output: output.quantization,
                                                activation: f.fusedActivation, qmin: -128, qmax: 127)!
                if f.op == "ADD" {
                    quantizedAdd(p, x, shape: a.shape, y, shape: b.shape, output: o, outputShape: output.shape)
                } else {
                    quantizedSub(p, x, shape: a.shape, y, shape: b.shape, output: o, outputShape: output.shape)
                }
            }
        }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }
}
