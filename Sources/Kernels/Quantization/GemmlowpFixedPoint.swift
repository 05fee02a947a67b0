// gemmlowp-style fixed-point functions on raw int32 values. A Qm value (m integer bits) has
// raw = real * 2^(31 - m); the product of a Qm and a Qn value, by a doubling high multiply, is
// Q(m + n). These reproduce the transcendental helpers TFLite's integer softmax-family kernels
// use, operation for operation.

/// Re-expresses a raw Q`from` value as Q`to`, with rounding and saturation.
@inline(__always)
func rescaleFixedPoint(_ raw: Int32, from: Int, to: Int) -> Int32 {
    saturatingRoundingMultiplyByPOT(raw, from - to)
}

/// gemmlowp's `RoundingHalfSum`: `(a + b) / 2` rounded half away from zero, in 64 bits.
@inline(__always)
func roundingHalfSum(_ a: Int32, _ b: Int32) -> Int32 {
    let sum = Int64(a) + Int64(b)
    return Int32(truncatingIfNeeded: (sum + (sum >= 0 ? 1 : -1)) / 2)
}

/// Saturating int32 addition.
@inline(__always)
func saturatingAdd(_ a: Int32, _ b: Int32) -> Int32 {
    Int32(clamping: Int64(a) + Int64(b))
}

/// Saturating int32 subtraction.
@inline(__always)
func saturatingSubtract(_ a: Int32, _ b: Int32) -> Int32 {
    Int32(clamping: Int64(a) - Int64(b))
}

/// `exp(a)` for a Q0.31 `a` in [-1/4, 0), as a Q0.31 value (gemmlowp's
/// `exp_on_interval_between_negative_one_quarter_and_0_excl`: a Taylor expansion around -1/8).
func expOnIntervalBetweenNegativeOneQuarterAndZero(_ a: Int32) -> Int32 {
    let constantTerm: Int32 = 1895147668        // exp(-1/8)
    let oneThird: Int32 = 715827883
    let x = a &+ (1 << 28)                       // a + 1/8
    let x2 = saturatingRoundingDoublingHighMul(x, x)
    let x3 = saturatingRoundingDoublingHighMul(x2, x)
    let x4 = saturatingRoundingDoublingHighMul(x2, x2)
    let x4Over4 = roundingDivideByPOT(x4, 2)
    let poly = roundingDivideByPOT(saturatingRoundingDoublingHighMul(x4Over4 &+ x3, oneThird) &+ x2, 1)
    return constantTerm &+ saturatingRoundingDoublingHighMul(constantTerm, x &+ poly)
}

/// `exp(a)` for a non-positive Q`integerBits` value, as a Q0.31 value (gemmlowp's
/// `exp_on_negative_values`): the fractional quarter by polynomial, the rest by multiplying
/// with `exp(-2^k)` constants bit by bit.
public func expOnNegativeValues(_ a: Int32, integerBits: Int) -> Int32 {
    let fractionalBits = 31 - integerBits
    let oneQuarter: Int32 = 1 << Int32(fractionalBits - 2)
    let mask = oneQuarter - 1
    let aModQuarterMinusQuarter = (a & mask) &- oneQuarter
    var result = expOnIntervalBetweenNegativeOneQuarterAndZero(
        rescaleFixedPoint(aModQuarterMinusQuarter, from: integerBits, to: 0))
    let remainder = aModQuarterMinusQuarter &- a
    let barrel: [(exponent: Int, multiplier: Int32)] = [
        (-2, 1672461947), (-1, 1302514674), (0, 790015084), (1, 290630308),
        (2, 39332535), (3, 720401), (4, 242),
    ]
    for (exponent, multiplier) in barrel where integerBits > exponent {
        let bit = fractionalBits + exponent
        if remainder & (1 << Int32(bit)) != 0 {
            result = saturatingRoundingDoublingHighMul(result, multiplier)
        }
    }
    if integerBits > 5 {
        let clamp = -(Int32(1) << Int32(36 - integerBits))   // -32 in Q`integerBits`
        if a < clamp { result = 0 }
    }
    if a == 0 { result = .max }
    return result
}

/// `1 / (1 + x)` for a Q0.31 `x` in [0, 1), as a Q0.31 value (gemmlowp's
/// `one_over_one_plus_x_for_x_in_0_1`: three Newton-Raphson steps in Q2.29).
public func oneOverOnePlusX(_ a: Int32) -> Int32 {
    let halfDenominator = roundingHalfSum(a, .max)
    let c48Over17: Int32 = 1515870810
    let cNeg32Over17: Int32 = -1010580540
    var x = c48Over17 &+ saturatingRoundingDoublingHighMul(halfDenominator, cNeg32Over17)
    let oneQ2: Int32 = 1 << 29
    for _ in 0..<3 {
        let halfDenominatorTimesX = saturatingRoundingDoublingHighMul(halfDenominator, x)
        let oneMinus = oneQ2 &- halfDenominatorTimesX
        x = x &+ rescaleFixedPoint(saturatingRoundingDoublingHighMul(x, oneMinus), from: 4, to: 2)
    }
    // Halving is exact (Q2 -> Q1 with the same raw value); then Q1 -> Q0.
    return rescaleFixedPoint(x, from: 1, to: 0)
}

/// `log(x)` for a Q`inputIntegerBits` value `x >= 1`, as a Q`outputIntegerBits` value (TFLite's
/// `log_x_for_x_greater_than_or_equal_to_1`).
public func logForXAtLeastOne(_ input: Int32, inputIntegerBits: Int, outputIntegerBits: Int) -> Int32 {
    let accumBits = outputIntegerBits + 1
    let log2: Int32 = 1488522236
    let sqrtSqrtHalf: Int32 = 1805811301
    let sqrtHalf: Int32 = 1518500250
    let oneQuarter: Int32 = 536870912
    let alphaN: Int32 = 117049297
    let alphaD: Int32 = 127690142
    let alphaI: Int32 = 1057819769
    let alphaF: Int32 = 638450708
    let shiftedQuarter = rescaleFixedPoint(oneQuarter, from: 0, to: accumBits)

    let za = input
    let zaHeadroomPlus1 = UInt32(bitPattern: za).leadingZeroBitCount
    let raTmp = saturatingRoundingMultiplyByPOT(za, zaHeadroomPlus1 - 1)
    let raRaw = saturatingRoundingMultiplyByPOT(saturatingRoundingDoublingHighMul(raTmp, sqrtHalf), 1)
    let zaPow2Adj = saturatingAdd(saturatingRoundingMultiplyByPOT(Int32(inputIntegerBits - zaHeadroomPlus1), 31 - accumBits),
                                  shiftedQuarter)
    let zb = saturatingRoundingDoublingHighMul(za, sqrtHalf)
    let zbHeadroom = UInt32(bitPattern: zb).leadingZeroBitCount - 1
    let rbRaw = saturatingRoundingMultiplyByPOT(za, zbHeadroom)
    let zbPow2Adj = saturatingSubtract(saturatingRoundingMultiplyByPOT(Int32(inputIntegerBits - zbHeadroom), 31 - accumBits),
                                       shiftedQuarter)
    let r = min(raRaw, rbRaw)
    let zPow2Adj = max(zaPow2Adj, zbPow2Adj)

    let p = roundingHalfSum(r, sqrtSqrtHalf)
    var q = r &- sqrtSqrtHalf
    q = q &+ q
    let commonSq = saturatingRoundingDoublingHighMul(q, q)
    let num = saturatingRoundingDoublingHighMul(q, r)
        &+ saturatingRoundingDoublingHighMul(saturatingRoundingDoublingHighMul(q, commonSq), alphaN)
    let denomMinusOne = saturatingRoundingDoublingHighMul(p, alphaI &+ q &+ saturatingRoundingDoublingHighMul(alphaD, commonSq))
        &+ saturatingRoundingDoublingHighMul(alphaF, q)
    let recipDenom = oneOverOnePlusX(denomMinusOne)
    let numScaled = rescaleFixedPoint(num, from: 0, to: accumBits)
    let sum = saturatingRoundingDoublingHighMul(zPow2Adj, log2) &+ saturatingRoundingDoublingHighMul(numScaled, recipDenom)
    return rescaleFixedPoint(sum, from: accumBits, to: outputIntegerBits)
}
