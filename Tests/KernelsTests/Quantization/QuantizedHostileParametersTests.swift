import Testing
import Kernels

/// Scales a malformed model could carry must not trap while parameters are derived or kernels
/// run (prepare is expected to reject them, but the arithmetic itself stays total).
@Suite struct QuantizedHostileParametersTests {
    static let scales: [Float] = [0, -1, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, 1e-30, 1e-12, .greatestFiniteMagnitude]

    @Test(arguments: scales)
    func derivedParametersDoNotTrap(_ scale: Float) {
        let good = AffineQuantization(scale: 0.05, zeroPoint: 3)
        let bad = AffineQuantization(scale: scale, zeroPoint: -7)
        _ = QuantizedMultiplier(Double(scale))
        _ = QuantizedMultiplier(Double(scale) * 1e300)
        _ = FusedActivation.relu6.quantizedRange(scale: scale, zeroPoint: 0, as: Int8.self)
        _ = QuantizedMulParams.make(input1: good, input2: bad, output: good, activation: .relu, qmin: -128, qmax: 127)
        _ = QuantizedAddParams.make(input1: good, input2: bad, output: bad, activation: .none, qmin: -128, qmax: 127)
        _ = QuantizedReluParams.relu(lower: 0, upper: 6, input: bad, output: bad, qmin: -128, qmax: 127)
        _ = QuantizedHardSwishParams.make(input: bad, output: good)
        _ = Int8LogSoftmaxParams(inputScale: scale)
        _ = Int8RsqrtParams(input: bad, output: good)
        let input: [Int8] = [-128, -1, 0, 1, 127]
        var out = [Int8](repeating: 0, count: 5)
        var floats = [Float](repeating: 0, count: 5)
        input.withUnsafeBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in
                Activations.Quantized.lookup(.logistic(input: bad, output: bad), input: i.baseAddress!, output: o.baseAddress!, count: 5)
                Activations.Quantized.lookup(.log(input: bad, output: good), input: i.baseAddress!, output: o.baseAddress!, count: 5)
                Softmax.Quantized.reference(QuantizedSoftmaxParams(inputScale: scale, beta: 1, output: bad), input: i.baseAddress!,
                                            output: o.baseAddress!, rows: 1, depth: 5)
                Elementwise.Quantized.squareRoot(input: i.baseAddress!, inputQuantization: bad, output: o.baseAddress!, outputQuantization: bad, count: 5)
                Softmax.Quantized.logSoftmax(Int8LogSoftmaxParams(inputScale: scale), input: i.baseAddress!, output: o.baseAddress!, rows: 1, depth: 5)
                floats.withUnsafeMutableBufferPointer { f in
                    Dequantize.Quantized.toFloat(bad, input: i.baseAddress!, output: f.baseAddress!, count: 5)
                    Quantize.Quantized.fromFloat(bad, input: f.baseAddress!, output: o.baseAddress!, count: 5)
                    _ = symmetricQuantizeFloats(f.baseAddress!, count: 5, into: o.baseAddress!)
                    _ = asymmetricQuantizeFloats(f.baseAddress!, count: 5, into: o.baseAddress!)
                }
            }
        }
        #expect(out.count == 5)
    }

    @Test func nonFiniteMultipliersBecomeZero() {
        #expect(QuantizedMultiplier(.nan) == QuantizedMultiplier(multiplier: 0, shift: 0))
        #expect(QuantizedMultiplier(.infinity) == QuantizedMultiplier(multiplier: 0, shift: 0))
    }

    @Test func floatConversionFollowsX86ForInvalidValues() {
        #expect(int32LikeX86(.nan) == .min)
        #expect(int32LikeX86(.infinity) == .min)
        #expect(int32LikeX86(3e9) == .min)
        #expect(int32LikeX86(-2.9) == -2)
        #expect(int32LikeX86(2147483520) == 2147483520)
    }
}
