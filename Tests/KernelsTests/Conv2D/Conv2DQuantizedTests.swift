import Testing
import Kernels

/// Runs one quantised CONV_2D of the op zoo through the reference kernel.
func runQuantizedConv2D(_ f: QuantizedOpFixture) -> (actual: [Int64], golden: [Int64]) {
    let input = f.inputs[0]!, filter = f.inputs[1]!, output = f.outputs[0]
    let geometry = f.convolutionGeometry
    let golden = output.values(Int64.self)
    switch input.dtype {
    case "int16":
        let params = QuantizedConvParams.make(geometry: geometry, input: input.quantization, filterScales: filter.scales.map(Float.init),
                                              filterZeroPoint: 0, output: output.quantization, outputChannels: filter.shape[0],
                                              activation: f.fusedActivation, qmin: Int32(Int16.min), qmax: Int32(Int16.max))!
        var out = [Int16](repeating: 0, count: output.count)
        let bias = f.inputs.count > 2 ? f.inputs[2]?.values(Int64.self) : nil
        input.values(Int16.self).withUnsafeBufferPointer { i in
            filter.values(Int8.self).withUnsafeBufferPointer { w in
                withOptionalPointer(bias) { b in
                    out.withUnsafeMutableBufferPointer { o in
                        Conv2D.Int16x8.reference(params, ConvOperands(input: i.baseAddress!, inputShape: input.nhwc, filter: w.baseAddress!,
                                                 filterShape: filter.nhwc, bias: b, output: o.baseAddress!, outputShape: output.nhwc))
                    }
                }
            }
        }
        return (out.map(Int64.init), golden)
    case "uint8":
        return (conv(UInt8.self, f, geometry), golden)
    default:
        return (conv(Int8.self, f, geometry), golden)
    }
}

private func conv<T: QuantizedElement>(_: T.Type, _ f: QuantizedOpFixture, _ geometry: ConvGeometry) -> [Int64] {
    let input = f.inputs[0]!, filter = f.inputs[1]!, output = f.outputs[0]
    let params = QuantizedConvParams.make(geometry: geometry, input: input.quantization, filterScales: filter.scales.map(Float.init),
                                          filterZeroPoint: filter.zeroPoint, output: output.quantization,
                                          outputChannels: filter.shape[0], activation: f.fusedActivation,
                                          qmin: T.quantizedMin, qmax: T.quantizedMax)!
    var out = [T](repeating: 0, count: output.count)
    let bias = f.inputs.count > 2 ? f.inputs[2]?.values(Int32.self) : nil
    input.values(T.self).withUnsafeBufferPointer { i in
        filter.values(T.self).withUnsafeBufferPointer { w in
            withOptionalPointer(bias) { b in
                out.withUnsafeMutableBufferPointer { o in
                    Conv2D.Quantized.reference(params, ConvOperands(input: i.baseAddress!, inputShape: input.nhwc, filter: w.baseAddress!,
                                               filterShape: filter.nhwc, bias: b, output: o.baseAddress!, outputShape: output.nhwc))
                }
            }
        }
    }
    return out.map(Int64.init)
}

/// Calls `body` with a pointer to the array's storage, or nil for a nil array.
func withOptionalPointer<E, R>(_ array: [E]?, _ body: (UnsafePointer<E>?) -> R) -> R {
    guard let array else { return body(nil) }
    return array.withUnsafeBufferPointer { body($0.baseAddress) }
}

@Suite struct Conv2DQuantizedTests {
    static let cases = QuantizedOpFixture.ops("CONV_2D", in: ["zoo_conv2d_int8", "zoo_conv2d_16x8", "zoo_conv2d_int8_floatio"])

    @Test func fixturesArePresent() {
        #expect(Self.cases.count == 12)
    }

    @Test(arguments: cases)
    func matchesLiteRTBitExactly(_ f: QuantizedOpFixture) {
        let (actual, golden) = runQuantizedConv2D(f)
        let diff = UnitDifference(actual, golden)
        #expect(diff.isExact, "\(f): \(diff)")
    }
}
