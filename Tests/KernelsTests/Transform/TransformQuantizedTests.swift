import Testing
import Kernels

@Suite struct TransformQuantizedTests {
    static let concatenations = QuantizedOpFixture.ops("CONCATENATION", in: ["zoo_reshape_transpose_int8"])
        .filter { $0.outputs[0].dtype == "int8" }
    static let resizes = QuantizedOpFixture.all(in: ["zoo_resize_int8"])

    @Test func fixturesArePresent() {
        #expect(Self.concatenations.count == 1)
        #expect(Self.resizes.count == 7)
    }

    @Test(arguments: concatenations)
    func concatenationMatchesLiteRT(_ f: QuantizedOpFixture) {
        let output = f.outputs[0]
        let inputs = f.inputs.compactMap { $0 }
        let rank = output.shape.count
        let axis = f.options["Axis"] < 0 ? f.options["Axis"] + rank : f.options["Axis"]
        let stored = inputs.map { $0.values(Int8.self) }
        var out = [Int8](repeating: 0, count: output.count)
        let pointers = stored.map { a in a.withUnsafeBufferPointer { UnsafePointer<Int8>($0.baseAddress!) } }
        withExtendedLifetime(stored) {
            out.withUnsafeMutableBufferPointer { o in
                pointers.withUnsafeBufferPointer { pointers in
                    Concatenation.Quantized.reference(inputs: pointers, quantizations: inputs.map(\.quantization), axisSizes: inputs.map { $0.shape[axis] },
                                                      outerCount: output.shape[..<axis].reduce(1, *), innerCount: output.shape[(axis + 1)...].reduce(1, *),
                                                      output: o.baseAddress!, outputQuantization: output.quantization)
                }
            }
        }
        let diff = UnitDifference(out, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }

    @Test(arguments: resizes)
    func resizeMatchesLiteRT(_ f: QuantizedOpFixture) {
        let input = f.inputs[0]!, output = f.outputs[0]
        let options = ResizeOptions(alignCorners: f.options["AlignCorners"] == 1, halfPixelCenters: f.options["HalfPixelCenters"] == 1)
        let actual = runUnary(Int8.self, input, outputCount: output.count) { i, o in
            if f.op == "RESIZE_BILINEAR" {
                Resize.Quantized.bilinear(options, input: i, inputShape: input.nhwc, output: o, outputShape: output.nhwc)
            } else {
                Resize.Quantized.nearestNeighbor(options, input: i, inputShape: input.nhwc, output: o, outputShape: output.nhwc)
            }
        }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }
}

@Suite struct PadQuantizedTests {
    static let cases = QuantizedOpFixture.all(in: ["zoo_pad_int8"]).filter { $0.op == "PAD" || $0.op == "PADV2" }

    @Test func fixturesArePresent() { #expect(Self.cases.count == 2) }

    @Test(arguments: cases)
    func matchesLiteRTExactly(_ f: QuantizedOpFixture) {
        let input = f.inputs[0]!, output = f.outputs[0]
        let paddings = f.inputs[1]!.values(Int.self)
        let amounts = stride(from: 0, to: paddings.count, by: 2).map { PadAmount(before: paddings[$0], after: paddings[$0 + 1]) }
        // PAD fills with the zero point (real zero); PADV2 with its constant input. The
        // runtime's byte-generic kernel, as the runtime calls it for int8.
        var padValue = f.op == "PADV2" ? Int8(f.inputs[2]!.values(Int64.self)[0]) : Int8(output.zeroPoint)
        let actual = runUnary(Int8.self, input, outputCount: output.count) { i, o in
            Pad.constant(input: i, inputShape: input.shape, paddings: amounts, padValue: &padValue, elementSize: 1, output: o)
        }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }
}
