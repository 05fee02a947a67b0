/// TFLite's `GetInvSqrtQuantizedMultiplierExp`: `1 / sqrt(input)` as a Q0.31 multiplier and a
/// shift, by five Newton-Raphson steps in gemmlowp fixed point (3 integer bits). Inputs 0 and 1
/// give `(Int32.max, 0)`. `reverseShift` is -1 for TFLite's left-shift convention.
public func inverseSqrtQuantizedMultiplier(_ value: Int32, reverseShift: Int) -> QuantizedMultiplier {
    var input = value
    if input <= 1 { return QuantizedMultiplier(multiplier: .max, shift: 0) }
    var shift = 11
    while input >= (1 << 29) {
        input /= 4
        shift += 1
    }
    let maxLeftShiftBits = UInt32(bitPattern: input).leadingZeroBitCount - 1
    let leftShiftBitPairs = maxLeftShiftBits / 2 - 1
    shift -= leftShiftBitPairs
    input <<= Int32(2 * leftShiftBitPairs)
    // Raw values of Q3.28 fixed-point numbers; a product of two Qm and Qn values is Q(m+n).
    let fixedInput = input >> 1
    let halfInput = saturatingRoundingMultiplyByPOT(fixedInput, -1)
    let halfThree: Int32 = (1 << 28) + (1 << 27)
    var x: Int32 = 1 << 28
    for _ in 0..<5 {
        let x2 = saturatingRoundingDoublingHighMul(x, x)          // Q6
        let x3 = saturatingRoundingDoublingHighMul(x2, x)         // Q9
        let x3q3 = saturatingRoundingMultiplyByPOT(x3, 6)         // back to Q3
        let a = saturatingRoundingDoublingHighMul(halfThree, x)   // Q6
        let b = saturatingRoundingDoublingHighMul(halfInput, x3q3) // Q6
        x = saturatingRoundingMultiplyByPOT(a &- b, 3)            // back to Q3
    }
    let halfSqrt2: Int32 = 1518500250                             // sqrt(2) / 2 in Q0.31
    x = saturatingRoundingDoublingHighMul(x, halfSqrt2)
    if shift < 0 {
        x <<= Int32(-shift)
        shift = 0
    }
    return QuantizedMultiplier(multiplier: x, shift: shift * reverseShift)
}
