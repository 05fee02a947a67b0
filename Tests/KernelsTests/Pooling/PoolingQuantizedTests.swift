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
                quantizedMaxPool2D(params, input: i, inputShape: input.nhwc, output: o, outputShape: output.nhwc)
            } else {
                quantizedAveragePool2D(params, input: i, inputShape: input.nhwc, output: o, outputShape: output.nhwc)
            }
        }
    }
}
