/// gemmlowp's `SaturatingRoundingDoublingHighMul`: `a * b / 2^31` rounded to nearest, saturating
/// the one overflowing case `Int32.min * Int32.min` to `Int32.max`. gemmlowp's nudge followed by
/// a truncating division makes ties round towards positive infinity (-1.5 gives -1).
@inlinable
public func saturatingRoundingDoublingHighMul(_ a: Int32, _ b: Int32) -> Int32 {
    if a == b && a == .min { return .max }
    let ab = Int64(a) * Int64(b)
    let nudge: Int64 = ab >= 0 ? (1 << 30) : (1 - (1 << 30))
    // C++ integer division truncates towards zero; Swift's does too.
    return Int32(truncatingIfNeeded: (ab + nudge) / (1 << 31))
}

/// gemmlowp's `RoundingDivideByPOT`: `x / 2^exponent` rounded to nearest, ties away from zero.
/// `exponent` must be in 0...31.
@inlinable
public func roundingDivideByPOT(_ x: Int32, _ exponent: Int) -> Int32 {
    let mask = Int32(truncatingIfNeeded: (Int64(1) << exponent) - 1)
    let remainder = x & mask
    let threshold = (mask >> 1) + (x < 0 ? 1 : 0)
    return (x >> Int32(exponent)) + (remainder > threshold ? 1 : 0)
}

/// gemmlowp's `SaturatingRoundingMultiplyByPOT`: `x * 2^exponent` for a positive exponent
/// (saturating), or a rounding divide for a negative one.
@inlinable
public func saturatingRoundingMultiplyByPOT(_ x: Int32, _ exponent: Int) -> Int32 {
    if exponent == 0 { return x }
    if exponent < 0 { return roundingDivideByPOT(x, -exponent) }
    let limit = Int32.max >> Int32(exponent)
    if x > limit { return .max }
    if x < -limit - 1 { return .min }
    return x << Int32(exponent)
}

/// TFLite's double-rounding `MultiplyByQuantizedMultiplier` for an int32 value: left shift for
/// positive `shift`, `saturatingRoundingDoublingHighMul`, then a rounding right shift.
@inlinable
public func multiplyByQuantizedMultiplier(_ x: Int32, _ quantizedMultiplier: Int32, _ shift: Int) -> Int32 {
    let leftShift = shift > 0 ? shift : 0
    let rightShift = shift > 0 ? 0 : -shift
    // TFLite multiplies by `1 << left_shift` in int32; wrapping matches it where it is defined.
    return roundingDivideByPOT(
        saturatingRoundingDoublingHighMul(x &* (Int32(1) << Int32(leftShift)), quantizedMultiplier),
        rightShift)
}

/// TFLite's `MultiplyByQuantizedMultiplier` for an int64 accumulator (16x8 kernels): the
/// multiplier is first rounded to 16 bits, then `x * m16` is shifted right by `15 - shift`
/// with rounding half up. Valid for `x` in [-2^47, 2^47) and `shift` in -31...7.
@inlinable
public func multiplyByQuantizedMultiplier(_ x: Int64, _ quantizedMultiplier: Int32, _ shift: Int) -> Int32 {
    let reduced: Int64 = quantizedMultiplier < 0x7FFF_0000
        ? Int64((quantizedMultiplier + (1 << 15)) >> 16)
        : 0x7FFF
    let totalShift = Int64(15 - shift)
    let rounded = x &* reduced &+ (Int64(1) << (totalShift - 1))
    return Int32(truncatingIfNeeded: rounded >> totalShift)
}

/// TFLite's `MultiplyByQuantizedMultiplierSmallerThanOneExp`: a doubling high multiply then a
/// rounding right shift by `-leftShift` (which is never positive here).
@inlinable
public func multiplyByQuantizedMultiplierSmallerThanOneExp(_ x: Int32, _ quantizedMultiplier: Int32,
                                                           _ leftShift: Int) -> Int32 {
    roundingDivideByPOT(saturatingRoundingDoublingHighMul(x, quantizedMultiplier), -leftShift)
}

/// TFLite's single-rounding `MultiplyByQuantizedMultiplier` (the form built with
/// `TFLITE_SINGLE_ROUNDING`, and the one ruy's GEMM applies): `x * multiplier / 2^(31 - shift)`
/// in 64 bits, rounded half up once.
@inlinable
public func multiplyByQuantizedMultiplierSingleRounding(_ x: Int32, _ quantizedMultiplier: Int32, _ shift: Int) -> Int32 {
    let totalShift = Int64(31 - shift)
    let rounding = Int64(1) << (totalShift - 1)
    return Int32(truncatingIfNeeded: (Int64(x) * Int64(quantizedMultiplier) + rounding) >> totalShift)
}
