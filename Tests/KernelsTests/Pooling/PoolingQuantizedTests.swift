import TestSupport
import Testing
import Kernels

@Suite struct PoolingQuantizedTests {
    static let cases = QuantizedOpFixture.ops("AVERAGE_POOL_2D", in: ["zoo_pool_int8"])
        + QuantizedOpFixture.ops("MAX_POOL_2D", in: ["zoo_pool_int8"])
        + QuantizedOpFixture.ops("AVERAGE_POOL_2D", in: ["efficientnet_lite0__chelsea"])

    @Test func fixturesArePresent() { #expect(Self.cases.count == 5) }

    @Test(arguments: cases)
    func matchesLiteRTBitExactly(_ f: QuantizedOpFixture) {
        let output = f.outputs[0]
        let actual = output.dtype == "uint8" ? run(UInt8.self, f) : run(Int8.self, f)
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(f): \(diff)")
    }

    /// The vectorised int8 average pool against the reference, bit for bit: random windows,
    /// strides and padding (partial windows at the borders), channel counts below, at and past
    /// a channel block with a remainder, a global pool like efficientnet_lite0's, the fused
    /// clamps, on 1 and 2 threads.
    @Test(arguments: 0..<24)
    func optimisedInt8AverageMatchesReference(seed: Int) {
        var rng = SplitMix64(seed: UInt64(9100 + seed))
        let global = seed % 6 == 5
        let channels = global ? 1280 : [3, 16, 64, 77, 130][seed % 6]
        let h = global ? 7 : rng.int(1...9), w = global ? 7 : rng.int(1...9)
        let fh = global ? 7 : rng.int(1...min(4, h)), fw = global ? 7 : rng.int(1...min(4, w))
        let stride = global ? 1 : rng.int(1...3)
        let made = ConvGeometry.make(padding: global || seed % 2 == 0 ? .valid : .same, inputHeight: h, inputWidth: w,
                                     filterHeight: fh, filterWidth: fw, strideHeight: stride, strideWidth: stride)!
        let input = NHWC(batch: 1 + seed % 2, height: h, width: w, channels: channels)
        let output = NHWC(batch: input.batch, height: made.outputHeight, width: made.outputWidth, channels: channels)
        let clamp = [ActivationRange<Int32>(min: -128, max: 127), ActivationRange(min: -20, max: 90)][seed % 2]
        let params = QuantizedPoolParams(geometry: made.geometry, filterHeight: fh, filterWidth: fw, activation: clamp)
        let values = (0..<input.elementCount).map { _ in Int8(truncatingIfNeeded: rng.int(-128...127)) }
        var want = [Int8](repeating: 0, count: output.elementCount), got = [Int8](repeating: 0, count: output.elementCount)
        values.withUnsafeBufferPointer { x in
            want.withUnsafeMutableBufferPointer { y in
                Pooling.Quantized.average(params, input: x.baseAddress!, inputShape: input, output: y.baseAddress!, outputShape: output)
            }
            got.withUnsafeMutableBufferPointer { y in
                Pooling.Quantized.averageOptimized(params, input: x.baseAddress!, inputShape: input, output: y.baseAddress!,
                                                   outputShape: output, pool: ThreadPool(threadCount: 1 + seed % 2))
            }
        }
        #expect(got == want, "seed \(seed): \(input) pooled \(fh)x\(fw) stride \(stride)")
    }

    private func run<T: QuantizedElement>(_: T.Type, _ f: QuantizedOpFixture) -> [Int64] {
        let input = f.inputs[0]!, output = f.outputs[0]
        let (kh, kw) = (f.options["FilterHeight"], f.options["FilterWidth"])
        let geometry = ConvGeometry.make(padding: f.padding, inputHeight: input.shape[1], inputWidth: input.shape[2],
                                         filterHeight: kh, filterWidth: kw,
                                         strideHeight: f.options["StrideH"], strideWidth: f.options["StrideW"])!.geometry
        let params = QuantizedPoolParams(geometry: geometry, filterHeight: kh, filterWidth: kw,
                                         activation: f.fusedActivation.quantizedRange(scale: output.scale, zeroPoint: output.zeroPoint, as: T.self)!)
        return runUnary(T.self, input, outputCount: output.count) { i, o in
            if f.op == "MAX_POOL_2D" {
                Pooling.Quantized.maxPool(params, input: i, inputShape: input.nhwc, output: o, outputShape: output.nhwc)
            } else {
                Pooling.Quantized.average(params, input: i, inputShape: input.nhwc, output: o, outputShape: output.nhwc)
            }
        }
    }
}
