#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What an int8 LOG_SOFTMAX needs at run time, as TFLite's prepare derives it (beta 1, input
/// differences in Q5.26, output scale 16/256 with zero point 127).
public struct Int8LogSoftmaxParams: Sendable {
    /// Rescales an input difference to Q5.26 (`inputScale * 2^26`, capped at 2^31 - 1).
    public var inputMultiplier: QuantizedMultiplier
    /// The inverse rescale, from Q5.26 back to input units.
    public var reverseMultiplier: QuantizedMultiplier
    /// Differences below this contribute nothing (their exponential underflows).
    public var diffMin: Int32

    static let inputIntegerBits = 5

    /// Derives the parameters from the input scale.
    public init(inputScale: Float) {
        let bits = Self.inputIntegerBits
        let real = min(Double(inputScale) * Double(1 << (31 - bits)), Double((1 << 31) - 1))
        let input = QuantizedMultiplier(real)
        inputMultiplier = input
        let reverseReal = pow(2.0, Double(31 - input.shift)) / Double(input.multiplier)
        reverseMultiplier = QuantizedMultiplier(reverseReal)
        let radius = Double((1 << bits) - 1) * Double(1 << (31 - bits)) / pow(2.0, Double(input.shift))
        // A tiny (hostile) input scale makes the radius exceed int32: every difference then counts.
        diffMin = -Int32(min(floor(radius), Double(Int32.max)))
    }
}

extension Softmax.Quantized {
    /// Reference int8 LOG_SOFTMAX over the last axis, as TFLite's integer kernel: a fixed-point sum
    /// of `exp(x - max)` in Q12, its fixed-point log, and each output `x - max - log(sum)` in the
    /// output quantisation (scale 1/16, zero point 127).
    public static func logSoftmax(_ params: Int8LogSoftmaxParams, input: UnsafePointer<Int8>,
                                  output: UnsafeMutablePointer<Int8>, rows: Int, depth: Int) {
        let inputBits = Int8LogSoftmaxParams.inputIntegerBits
        let accumulationBits = 12, outputBits = 4
        let outputZeroPoint: Int32 = 127
        let m = params.inputMultiplier
        for r in 0..<rows {
            let x = input + r * depth
            var maximum: Int32 = -128
            for j in 0..<depth { maximum = max(maximum, Int32(x[j])) }
            var sum: Int32 = 0
            for j in 0..<depth {
                let diff = Int32(x[j]) - maximum
                if diff >= params.diffMin {
                    let scaled = multiplyByQuantizedMultiplier(diff, m.multiplier, m.shift)
                    sum = sum &+ rescaleFixedPoint(expOnNegativeValues(scaled, integerBits: inputBits), from: 0, to: accumulationBits)
                }
            }
            let logSum = logForXAtLeastOne(sum, inputIntegerBits: accumulationBits, outputIntegerBits: inputBits)
            let shiftedLogSum = logSum &+ Int32.min
            let adjustedDiffMin = max(params.diffMin - 1,
                                      multiplyByQuantizedMultiplier(shiftedLogSum, params.reverseMultiplier.multiplier,
                                                                    params.reverseMultiplier.shift))
            for j in 0..<depth {
                let diff = Int32(x[j]) - maximum
                if diff > adjustedDiffMin {
                    let scaled = multiplyByQuantizedMultiplier(diff, m.multiplier, m.shift)
                    let value = roundingDivideByPOT(scaled &- logSum, 31 - inputBits - outputBits) &+ outputZeroPoint
                    output[r * depth + j] = Int8(saturatingQuantized: value)
                } else {
                    output[r * depth + j] = -128
                }
            }
        }
    }
}
