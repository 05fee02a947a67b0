import Testing
import Kernels

@Suite struct QuantizeDequantizeQuantizedTests {
    static let cases = QuantizedOpFixture.all(in: ["zoo_conv2d_int8_floatio", "zoo_minmax_sqdiff_int8", "zoo_reshape_transpose_int8",
                                                   "zoo_math_unary_q_int8", "mobilenet_v2_uint8io", "efficientnet_lite0__chelsea"])
        .filter { $0.op == "QUANTIZE" || $0.op == "DEQUANTIZE" }

    @Test func fixturesArePresent() { #expect(Self.cases.count == 18) }

    @Test(arguments: cases)
    func matchesLiteRTExactly(_ f: QuantizedOpFixture) {
        let input = f.inputs[0]!, output = f.outputs[0]
        let n = output.count
        if f.op == "DEQUANTIZE" {
            var out = [Float](repeating: 0, count: n)
            input.values(Int8.self).withUnsafeBufferPointer { i in
                out.withUnsafeMutableBufferPointer { Dequantize.Quantized.toFloat(input.quantization, input: i.baseAddress!, output: $0.baseAddress!, count: n) }
            }
            #expect(out == output.floats, "\(f)")
            return
        }
        let actual: [Int64]
        switch (input.dtype, output.dtype) {
        case ("float32", "int8"): actual = quantize(Int8.self, input, output)
        case ("float32", "uint8"): actual = quantize(UInt8.self, input, output)
        case ("int8", "int8"): actual = requantized(Int8.self, Int8.self, input, output)
        case ("int8", "uint8"): actual = requantized(Int8.self, UInt8.self, input, output)
        case ("uint8", "int8"): actual = requantized(UInt8.self, Int8.self, input, output)
        default:
            Issue.record("\(f): unexpected types \(input.dtype) -> \(output.dtype)")
            return
        }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }

    private func quantize<T: QuantizedElement>(_: T.Type, _ input: QuantizedOpFixture.Tensor, _ output: QuantizedOpFixture.Tensor) -> [Int64] {
        var out = [T](repeating: 0, count: output.count)
        input.floats.withUnsafeBufferPointer { i in
            out.withUnsafeMutableBufferPointer { Quantize.Quantized.fromFloat(output.quantization, input: i.baseAddress!, output: $0.baseAddress!, count: output.count) }
        }
        return out.map(Int64.init)
    }

    private func requantized<In: QuantizedElement, Out: QuantizedElement>(_: In.Type, _: Out.Type, _ input: QuantizedOpFixture.Tensor,
                                                                          _ output: QuantizedOpFixture.Tensor) -> [Int64] {
        var out = [Out](repeating: 0, count: output.count)
        let m = QuantizedMultiplier(Double(input.scale) / Double(output.scale))
        input.values(In.self).withUnsafeBufferPointer { i in
            out.withUnsafeMutableBufferPointer {
                Quantize.Quantized.requantize(input: i.baseAddress!, inputZeroPoint: input.zeroPoint, output: $0.baseAddress!,
                                              outputZeroPoint: output.zeroPoint, multiplier: m, count: output.count)
            }
        }
        return out.map(Int64.init)
    }
}
