import Testing
import Kernels

@Suite struct ElementwiseQuantizedTests {
    static let cases = QuantizedOpFixture.ops("ADD", in: ["zoo_add_sub_mul_bcast_int8"])
        + QuantizedOpFixture.ops("SUB", in: ["zoo_add_sub_mul_bcast_int8"])
        + QuantizedOpFixture.ops("MUL", in: ["zoo_add_sub_mul_bcast_int8", "zoo_reshape_transpose_int8", "zoo_math_unary_q_int8"])
        + QuantizedOpFixture.ops("ADD", in: ["mobilenet_v2_int8", "efficientnet_lite0__chelsea"])

    @Test func fixturesArePresent() { #expect(Self.cases.count == 24) }

    @Test(arguments: cases)
    func matchesLiteRTBitExactly(_ f: QuantizedOpFixture) {
        let output = f.outputs[0]
        let actual = output.dtype == "uint8" ? run(UInt8.self, f) : run(Int8.self, f)
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }

    private func run<T: QuantizedElement>(_: T.Type, _ f: QuantizedOpFixture) -> [Int64] {
        let a = f.inputs[0]!, b = f.inputs[1]!, output = f.outputs[0]
        let (qmin, qmax) = (T.quantizedMin, T.quantizedMax)
        return runBinary(T.self, a, b, outputCount: output.count) { x, y, o in
            switch f.op {
            case "MUL":
                let p = QuantizedMulParams.make(input1: a.quantization, input2: b.quantization, output: output.quantization,
                                                activation: f.fusedActivation, qmin: qmin, qmax: qmax)!
                Elementwise.Quantized.mul(p, x, shape: a.shape, y, shape: b.shape, output: o, outputShape: output.shape)
            default:
                let p = QuantizedAddParams.make(input1: a.quantization, input2: b.quantization, output: output.quantization,
                                                activation: f.fusedActivation, qmin: qmin, qmax: qmax)!
                if f.op == "ADD" {
                    Elementwise.Quantized.rescaledBinary(.add, p, x, shape: a.shape, y, shape: b.shape, output: o, outputShape: output.shape)
                } else {
                    Elementwise.Quantized.rescaledBinary(.subtract, p, x, shape: a.shape, y, shape: b.shape, output: o, outputShape: output.shape)
                }
            }
        }
    }
}
