import Testing
import Kernels

@Suite struct UnaryMathQuantizedTests {
    static let cases = QuantizedOpFixture.all(in: ["zoo_math_unary_q_int8"])
        .filter { ["ABS", "EXP", "LOG", "SQRT", "RSQRT"].contains($0.op) }

    @Test func fixturesArePresent() { #expect(Self.cases.count == 5) }

    @Test(arguments: cases)
    func matchesLiteRTBitExactly(_ f: QuantizedOpFixture) {
        let input = f.inputs[0]!, output = f.outputs[0]
        let (iq, oq, n) = (input.quantization, output.quantization, output.count)
        let actual = runUnary(Int8.self, input, outputCount: n) { i, o in
            switch f.op {
            case "ABS": Elementwise.Quantized.absoluteValue(input: i, inputQuantization: iq, output: o, outputQuantization: oq, count: n)
            case "EXP": Activations.Quantized.lookup(.exp(input: iq, output: oq), input: i, output: o, count: n)
            case "LOG": Activations.Quantized.lookup(.log(input: iq, output: oq), input: i, output: o, count: n)
            case "SQRT": Elementwise.Quantized.squareRoot(input: i, inputQuantization: iq, output: o, outputQuantization: oq, count: n)
            default: Elementwise.Quantized.reciprocalSquareRoot(Int8RsqrtParams(input: iq, output: oq), input: i, output: o, count: n)
            }
        }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }
}
