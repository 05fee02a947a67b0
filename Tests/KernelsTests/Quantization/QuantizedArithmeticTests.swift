import TestSupport
import Foundation
import Testing
import Kernels


/// Floor division of Int64 values (Swift's `/` truncates).
private func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

@Suite struct QuantizedArithmeticTests {
    @Test func doublingHighMulSaturatesOnlyAtMinTimesMin() {
        #expect(saturatingRoundingDoublingHighMul(.min, .min) == .max)
        // -2^31 * (2^31 - 1) / 2^31 = -(2^31 - 1) exactly.
        #expect(saturatingRoundingDoublingHighMul(.min, .max) == -Int32.max)
        #expect(saturatingRoundingDoublingHighMul(.max, .max) == Int32.max - 1)
    }

    @Test func doublingHighMulRoundsTiesUpwards() {
        // a * b / 2^31 = +-1.5 and +-0.5: gemmlowp's nudge rounds ties towards +infinity.
        #expect(saturatingRoundingDoublingHighMul(3, 1 << 30) == 2)
        #expect(saturatingRoundingDoublingHighMul(-3, 1 << 30) == -1)
        #expect(saturatingRoundingDoublingHighMul(1, 1 << 30) == 1)
        #expect(saturatingRoundingDoublingHighMul(-1, 1 << 30) == 0)
    }

    @Test func doublingHighMulMatchesFloorOfProductPlusHalf() {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<20000 {
            let a = Int32.random(in: .min ... .max, using: &rng)
            let b = Int32.random(in: .min ... .max, using: &rng)
            if a == .min && b == .min { continue }
            let expected = floorDiv(Int64(a) * Int64(b) + (1 << 30), 1 << 31)
            #expect(Int64(saturatingRoundingDoublingHighMul(a, b)) == expected, "\(a) * \(b)")
        }
    }

    @Test func roundingDivideRoundsTiesAwayFromZero() {
        #expect(roundingDivideByPOT(3, 1) == 2)
        #expect(roundingDivideByPOT(-3, 1) == -2)
        #expect(roundingDivideByPOT(-5, 2) == -1)   // -1.25
        #expect(roundingDivideByPOT(-6, 2) == -2)   // -1.5
        #expect(roundingDivideByPOT(Int32.min, 31) == -1)
        #expect(roundingDivideByPOT(Int32.max, 31) == 1)
        #expect(roundingDivideByPOT(-7, 0) == -7)
    }

    @Test func roundingDivideMatchesRoundedQuotient() {
        var rng = SplitMix64(seed: 2)
        for _ in 0..<20000 {
            let x = Int32.random(in: .min ... .max, using: &rng)
            let e = Int.random(in: 0...31, using: &rng)
            // Exact in double: a 32-bit integer divided by a power of two.
            let expected = (Double(x) / Double(1 << UInt64(e))).rounded(.toNearestOrAwayFromZero)
            #expect(Double(roundingDivideByPOT(x, e)) == expected, "\(x) >> \(e)")
        }
    }

    @Test func quantizeMultiplierOfOneIsHalfShiftedLeftOnce() {
        #expect(QuantizedMultiplier(1.0) == QuantizedMultiplier(multiplier: 1 << 30, shift: 1))
        #expect(QuantizedMultiplier(0.5) == QuantizedMultiplier(multiplier: 1 << 30, shift: 0))
        #expect(QuantizedMultiplier(0) == QuantizedMultiplier(multiplier: 0, shift: 0))
    }

    @Test func significandRoundingUpToTwoToThe31IsRenormalised() {
        // 1 - 2^-40 has a significand that rounds to exactly 2^31 at 31 bits.
        let q = QuantizedMultiplier(1 - 0x1p-40)
        #expect(q == QuantizedMultiplier(multiplier: 1 << 30, shift: 1))
    }

    @Test func tinyMultipliersFlushToZero() {
        #expect(QuantizedMultiplier(0x1p-40) == QuantizedMultiplier(multiplier: 0, shift: 0))
        // 2^-31 is the smallest multiplier kept: significand 1/2, exponent -30.
        #expect(QuantizedMultiplier(0x1p-31) == QuantizedMultiplier(multiplier: 1 << 30, shift: -30))
    }

    @Test func quantizedMultiplierIsWithinHalfAnUlpOfTheReal() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<5000 {
            let real = Double.random(in: 1e-8...1e4, using: &rng)
            let q = QuantizedMultiplier(real)
            #expect(q.multiplier >= 1 << 30)
            let ulp = Double(sign: .plus, exponent: q.shift - 31, significand: 1)
            #expect(abs(q.realValue - real) <= ulp / 2, "\(real)")
        }
    }

    @Test func smallerAndGreaterThanOneRejectOutOfRange() {
        #expect(QuantizedMultiplier.smallerThanOne(1.0) == nil)
        #expect(QuantizedMultiplier.smallerThanOne(0) == nil)
        #expect(QuantizedMultiplier.smallerThanOne(0.75)?.shift == 0)
        #expect(QuantizedMultiplier.greaterThanOne(0.5) == nil)
        #expect(QuantizedMultiplier.greaterThanOne(3)?.shift == 2)
    }

    @Test func multiplyByOneIsIdentity() {
        let one = QuantizedMultiplier(1.0)
        for x: Int32 in [0, 1, -1, 12345, -12345, 1 << 29, -(1 << 29)] {
            #expect(one.apply(x) == x)
        }
    }

    @Test func multiplyByQuantizedMultiplierIsWithinOneOfTheExactProduct() {
        var rng = SplitMix64(seed: 4)
        for _ in 0..<20000 {
            let real = Double.random(in: 1e-6...0.99, using: &rng)
            let q = QuantizedMultiplier(real)
            let x = Int32.random(in: -(1 << 24)...(1 << 24), using: &rng)
            // Two roundings, each at most half a unit, plus the multiplier's own error.
            let exact = Double(x) * q.realValue
            #expect(abs(Double(q.apply(x)) - exact) <= 1, "\(x) * \(real)")
            let wide = Int64(x) * 64
            #expect(abs(Double(q.apply(wide)) - Double(wide) * q.realValue) <= 1 + abs(Double(wide)) * 0x1p-15, "\(wide) * \(real)")
        }
    }

    @Test func activationRangeQuantisesBoundsWithOutputParameters() {
        // scale 0.05, zero point -10: 0 -> -10, 6 -> 110, -1 -> -30, 1 -> 10.
        let relu6 = FusedActivation.relu6.quantizedRange(scale: 0.05, zeroPoint: -10, as: Int8.self)!
        #expect(relu6.min == -10 && relu6.max == 110)
        let relu1 = FusedActivation.reluN1To1.quantizedRange(scale: 0.05, zeroPoint: -10, as: Int8.self)!
        #expect(relu1.min == -30 && relu1.max == 10)
        let relu = FusedActivation.relu.quantizedRange(scale: 0.05, zeroPoint: -10, as: UInt8.self)!
        #expect(relu.min == 0 && relu.max == 255)
        #expect(FusedActivation.tanh.quantizedRange(scale: 1, zeroPoint: 0, as: Int8.self) == nil)
    }

    @Test func inverseSqrtMultiplierApproximatesOneOverSquareRoot() {
        for value: Int32 in [2, 3, 100, 12345, 1 << 20, (1 << 29) + 7, Int32.max] {
            let m = inverseSqrtQuantizedMultiplier(value, reverseShift: -1)
            let real = m.realValue
            let expected = 1 / Double(value).squareRoot()
            #expect(abs(real - expected) / expected < 1e-5, "\(value): \(real) vs \(expected)")
        }
    }

    @Test func halfPrecisionWidensExactly() {
        var out: [Float] = [0, 0, 0, 0, 0, 0]
        let bits: [UInt16] = [0x3C00, 0xC000, 0x0001, 0x7BFF, 0x7C00, 0x8000]
        bits.withUnsafeBufferPointer { b in out.withUnsafeMutableBufferPointer { Dequantize.Quantized.halfBits(input: b.baseAddress!, output: $0.baseAddress!, count: 6) } }
        #expect(out[0] == 1 && out[1] == -2 && out[2] == 0x1p-24 && out[3] == 65504 && out[4] == .infinity)
        #expect(out[5] == 0 && out[5].sign == .minus)
    }

    @Test func fixedPointExpMatchesExp() {
        // Q5.26 inputs in [-31, 0]; result Q0.31.
        var rng = SplitMix64(seed: 5)
        for _ in 0..<2000 {
            let x = Double.random(in: -31...0, using: &rng)
            let raw = Int32((x * 0x1p26).rounded())
            let result = Double(expOnNegativeValues(raw, integerBits: 5)) * 0x1p-31
            #expect(abs(result - Foundation.exp(Double(raw) * 0x1p-26)) < 1e-6, "exp(\(x))")
        }
        #expect(expOnNegativeValues(0, integerBits: 5) == .max)
    }

    @Test func fixedPointReciprocalAndLogMatchFloat() {
        var rng = SplitMix64(seed: 6)
        for _ in 0..<2000 {
            let x = Double.random(in: 0..<1, using: &rng)
            let raw = Int32((x * 0x1p31).rounded(.down))
            let reciprocal = Double(oneOverOnePlusX(raw)) * 0x1p-31
            #expect(abs(reciprocal - 1 / (1 + Double(raw) * 0x1p-31)) < 1e-6, "1/(1+\(x))")
            // log of a Q12.19 value in [1, 4000], as Q5.26.
            let y = Double.random(in: 1...4000, using: &rng)
            let yRaw = Int32((y * 0x1p19).rounded())
            let log = Double(logForXAtLeastOne(yRaw, inputIntegerBits: 12, outputIntegerBits: 5)) * 0x1p-26
            #expect(abs(log - Foundation.log(Double(yRaw) * 0x1p-19)) < 1e-5, "log(\(y))")
        }
    }
}
