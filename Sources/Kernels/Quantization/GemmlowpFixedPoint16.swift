// gemmlowp's fixed-point logistic and tanh on raw int16 values, as TFLite's integer LSTM applies
// them to its gates. A Qm int16 value (m integer bits) has raw = real * 2^(15 - m). The int16
// forms differ from the int32 ones in GemmlowpFixedPoint.swift by more than width: additions
// wrap (C++ truncates the promoted sum back to 16 bits) except the one saturating add in the
// exponential, and every constant is the int32 constant rounded to 16 bits.

/// `RoundingDivideByPOT(int32Constant, 16)`: gemmlowp's 16-bit form of a 32-bit constant.
@inline(__always)
private func constant16(_ int32Constant: Int32) -> Int16 {
    Int16(truncatingIfNeeded: roundingDivideByPOT(int32Constant, 16))
}

/// The 16-bit `SaturatingRoundingDoublingHighMul`: `a * b / 2^15`, ties towards +infinity,
/// `Int16.min * Int16.min` saturating to `Int16.max`.
@inline(__always)
func saturatingRoundingDoublingHighMul16(_ a: Int16, _ b: Int16) -> Int16 {
    if a == b && a == .min { return .max }
    let ab = Int32(a) * Int32(b)
    let nudge: Int32 = ab >= 0 ? (1 << 14) : (1 - (1 << 14))
    return Int16(truncatingIfNeeded: (ab + nudge) / (1 << 15))
}

/// The 16-bit `SaturatingRoundingMultiplyByPOT`: a saturating left shift, or a rounding right
/// shift for a negative exponent.
@inline(__always)
func saturatingRoundingMultiplyByPOT16(_ x: Int16, _ exponent: Int) -> Int16 {
    if exponent == 0 { return x }
    if exponent < 0 { return Int16(truncatingIfNeeded: roundingDivideByPOT(Int32(x), -exponent)) }
    let threshold = Int32((1 << (15 - exponent)) - 1)
    if Int32(x) > threshold { return .max }
    if Int32(x) < -threshold { return .min }
    return x << Int16(exponent)
}

/// `exp(a)` for a Q0 `a` in [-1/4, 0): a Taylor expansion around -1/8.
private func expOnIntervalBetweenNegativeOneQuarterAndZero16(_ a: Int16) -> Int16 {
    let constantTerm = constant16(1895147668)          // exp(-1/8)
    let oneThird = constant16(715827883)
    let x = a &+ (1 << 12)                              // a + 1/8
    let x2 = saturatingRoundingDoublingHighMul16(x, x)
    let x3 = saturatingRoundingDoublingHighMul16(x2, x)
    let x4 = saturatingRoundingDoublingHighMul16(x2, x2)
    let x4Over4 = saturatingRoundingMultiplyByPOT16(x4, -2)
    let poly = saturatingRoundingMultiplyByPOT16(saturatingRoundingDoublingHighMul16(x4Over4 &+ x3, oneThird) &+ x2, -1)
    let product = saturatingRoundingDoublingHighMul16(constantTerm, x &+ poly)
    return Int16(clamping: Int32(constantTerm) + Int32(product))
}

/// `exp(a)` for a non-positive Q`integerBits` `a`, as a Q0 value.
private func expOnNegativeValues16(_ a: Int16, integerBits: Int) -> Int16 {
    let fractionalBits = 15 - integerBits
    let oneQuarter = Int16(1) << Int16(fractionalBits - 2)
    let aModQuarterMinusQuarter = (a & (oneQuarter - 1)) &- oneQuarter
    var result = expOnIntervalBetweenNegativeOneQuarterAndZero16(
        saturatingRoundingMultiplyByPOT16(aModQuarterMinusQuarter, integerBits))
    let remainder = aModQuarterMinusQuarter &- a
    let barrel: [(exponent: Int, multiplier: Int32)] = [
        (-2, 1672461947), (-1, 1302514674), (0, 790015084), (1, 290630308),
        (2, 39332535), (3, 720401), (4, 242),
    ]
    for (exponent, multiplier) in barrel where integerBits > exponent {
        let bit = Int16(truncatingIfNeeded: 1 << (fractionalBits + exponent))
        if remainder & bit != 0 {
            result = saturatingRoundingDoublingHighMul16(result, constant16(multiplier))
        }
    }
    if integerBits > 5 {
        let clamp = constant16(-(Int32(1) << Int32(36 - integerBits)))   // -32
        if a < clamp { result = 0 }
    }
    return a == 0 ? .max : result
}

/// Newton-Raphson reciprocal of `1 + x` (halved) for a Q0 `x` in [0, 1), in Q2; `x` is returned
/// as gemmlowp leaves it before its final rescale.
private func newtonRaphsonReciprocalQ2(_ a: Int16) -> Int16 {
    let sum = Int32(a) + Int32(Int16.max)
    let halfDenominator = Int16(truncatingIfNeeded: (sum + (sum >= 0 ? 1 : -1)) / 2)
    let oneQ2: Int16 = 1 << 13
    var x = constant16(1515870810) &+ saturatingRoundingDoublingHighMul16(halfDenominator, constant16(-1010580540))
    for _ in 0..<3 {
        let oneMinus = oneQ2 &- saturatingRoundingDoublingHighMul16(halfDenominator, x)
        x = x &+ saturatingRoundingMultiplyByPOT16(saturatingRoundingDoublingHighMul16(x, oneMinus), 2)
    }
    return x
}

/// gemmlowp's `logistic` on a Q`integerBits` int16, as a Q0.15 value.
public func fixedPointLogistic16(_ a: Int16, integerBits: Int) -> Int16 {
    if a == 0 { return constant16(1 << 30) }
    let absolute = a > 0 ? a : 0 &- a
    // 1 / (1 + exp(-|a|)): the Q2 reciprocal of the halved denominator, halved exactly to Q1,
    // then rescaled to Q0.
    let positive = saturatingRoundingMultiplyByPOT16(
        newtonRaphsonReciprocalQ2(expOnNegativeValues16(0 &- absolute, integerBits: integerBits)), 1)
    return a > 0 ? positive : Int16.max &- positive
}

/// gemmlowp's `tanh` on a Q`integerBits` int16, as a Q0.15 value.
public func fixedPointTanh16(_ a: Int16, integerBits: Int) -> Int16 {
    if a == 0 { return 0 }
    let negative = a < 0 ? a : 0 &- a
    // (1 - e) / (1 + e) with e = exp(2 * negative): the raw value read with one more integer bit.
    let e = expOnNegativeValues16(negative, integerBits: integerBits + 1)
    let t = saturatingRoundingMultiplyByPOT16(newtonRaphsonReciprocalQ2(e) &- (1 << 13), 2)
    return a < 0 ? 0 &- t : t
}
