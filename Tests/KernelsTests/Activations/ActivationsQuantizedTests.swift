import Testing
import Kernels

@Suite struct ActivationsQuantizedTests {
    static let cases = QuantizedOpFixture.all(in: ["zoo_act_smooth_int8", "zoo_act_relu_int8",
                                                           "zoo_gelu_exact_int8", "zoo_prelu_int8"])

    @Test func fixturesArePresent() { #expect(Self.cases.count == 10) }

    @Test(arguments: cases)
    func matchesLiteRTBitExactly(_ f: QuantizedOpFixture) {
        let input = f.inputs[0]!, output = f.outputs[0]
        let (iq, oq) = (input.quantization, output.quantization)
        let n = output.count
        let actual: [Int64]
        switch f.op {
        case "LOGISTIC", "TANH", "GELU":
            let table: QuantizedLookupTable<Int8> = f.op == "LOGISTIC" ? .logistic(input: iq, output: oq)
                : f.op == "TANH" ? .tanh(input: iq, output: oq)
                : .gelu(input: iq, output: oq, approximate: f.options["Approximate"] == 1)
            actual = runUnary(Int8.self, input, outputCount: n) { Activations.Quantized.lookup(table, input: $0, output: $1, count: n) }
        case "HARD_SWISH":
            let p = QuantizedHardSwishParams.make(input: iq, output: oq)!
            actual = runUnary(Int8.self, input, outputCount: n) { Activations.Quantized.hardSwish(p, input: $0, output: $1, count: n) }
        case "RELU", "RELU6", "RELU_N1_TO_1":
            let (lo, hi): (Float, Float) = f.op == "RELU" ? (0, .infinity) : f.op == "RELU6" ? (0, 6) : (-1, 1)
            let p = QuantizedReluParams.relu(lower: lo, upper: hi, input: iq, output: oq, qmin: -128, qmax: 127)
            actual = runUnary(Int8.self, input, outputCount: n) { Activations.Quantized.relu(p, input: $0, output: $1, count: n) }
        case "LEAKY_RELU":
            let p = QuantizedReluParams.leakyRelu(alpha: f.options.float("Alpha"), input: iq, output: oq, qmin: -128, qmax: 127)
            actual = runUnary(Int8.self, input, outputCount: n) { Activations.Quantized.leakyRelu(p, input: $0, output: $1, count: n) }
        case "PRELU":
            let alpha = f.inputs[1]!
            let p = QuantizedPreluParams.make(input: iq, alpha: alpha.quantization, output: oq)
            actual = runBinary(Int8.self, input, alpha, outputCount: n) { x, a, o in
                Activations.Quantized.prelu(p, input: x, inputShape: input.shape, alpha: a, alphaShape: alpha.shape, output: o, outputShape: output.shape)
            }
        default:
            Issue.record("unexpected op \(f.op)")
            return
        }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }
}
