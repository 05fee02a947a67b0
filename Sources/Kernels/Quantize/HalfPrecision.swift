/// IEEE 754 half-precision conversion done on bits, so it is exact and does not depend on the
/// platform's `Float16` support.
public enum HalfPrecision {
    /// The float32 value of a binary16 bit pattern (exact: every half is a float).
    @inlinable
    public static func float(fromBits h: UInt16) -> Float {
        let sign = UInt32(h & 0x8000) << 16
        let exponent = Int((h >> 10) & 0x1F)
        let mantissa = UInt32(h & 0x3FF)
        if exponent == 0x1F {
            // Infinity or NaN; NaN payload bits are kept.
            return Float(bitPattern: sign | 0x7F80_0000 | (mantissa << 13))
        }
        if exponent == 0 {
            if mantissa == 0 { return Float(bitPattern: sign) }
            // Subnormal: mantissa * 2^-24, exactly representable in float.
            let magnitude = Float(mantissa) * 0x1p-24
            return sign == 0 ? magnitude : -magnitude
        }
        return Float(bitPattern: sign | UInt32(exponent + 112) << 23 | (mantissa << 13))
    }

    /// ``float(fromBits:)`` for sixteen patterns, without a branch so that it vectorises. The
    /// magnitude bits move to their float32 places and the exponent is rebased by 127 - 15;
    /// infinities and NaNs (payload kept) get the rest of the way to the top exponent, and
    /// zeros and subnormals, rebased to `2^-14 * (1 + m / 2^10)` with one more exponent step,
    /// lose `2^-14` in one float subtraction, which leaves `m * 2^-24` exactly.
    ///
    /// The lane tests are arithmetic and the widening is spelled out lane by lane: SIMD
    /// comparisons with `replacing(with:where:)`, and the generic widening, compile to loops
    /// over the lanes.
    @inlinable
    public static func floats(fromBits h: SIMD16<UInt16>) -> SIMD16<Float> {
        let wide = SIMD16<UInt32>(UInt32(h[0]), UInt32(h[1]), UInt32(h[2]), UInt32(h[3]), UInt32(h[4]), UInt32(h[5]),
                                  UInt32(h[6]), UInt32(h[7]), UInt32(h[8]), UInt32(h[9]), UInt32(h[10]), UInt32(h[11]),
                                  UInt32(h[12]), UInt32(h[13]), UInt32(h[14]), UInt32(h[15]))
        let magnitude = (wide & 0x7FFF) &<< 13
        let exponent = magnitude & 0x0F80_0000
        // One more exponent step carries only the top exponent (31 << 23) into bit 28; one less
        // borrows into bit 31 only from exponent 0.
        let special = SIMD16<UInt32>(repeating: 0) &- ((exponent &+ 0x0080_0000) &>> 28)
        let small = SIMD16<UInt32>(repeating: 0) &- ((exponent &- 1) &>> 31)
        let rebased = magnitude &+ 0x3800_0000
        let normal = rebased &+ (special & 0x3800_0000)
        let scaled = unsafeBitCast(unsafeBitCast(rebased &+ 0x0080_0000, to: SIMD16<Float>.self) - SIMD16(repeating: 0x1p-14),
                                   to: SIMD16<UInt32>.self)
        let bits = (normal & ~small) | (scaled & small)
        return unsafeBitCast(bits | (wide & 0x8000) &<< 16, to: SIMD16<Float>.self)
    }

    /// The binary16 bit pattern nearest to `value` (ties to even; overflow to infinity).
    public static func bits(from value: Float) -> UInt16 {
        let b = value.bitPattern
        let sign = UInt16((b >> 16) & 0x8000)
        let exponent = Int((b >> 23) & 0xFF)
        let mantissa = b & 0x7F_FFFF
        if exponent == 0xFF { return sign | 0x7C00 | (mantissa != 0 ? 0x200 | UInt16(mantissa >> 13) : 0) }
        let e = exponent - 127 + 15
        if e >= 0x1F { return sign | 0x7C00 }
        if e <= 0 {
            // Result is subnormal or zero: shift the full significand into place and round.
            if e < -10 { return sign }
            let significand = mantissa | 0x80_0000
            let shift = UInt32(14 - e)
            var half = significand >> shift
            let remainder = significand & ((1 << shift) - 1), halfway = UInt32(1) << (shift - 1)
            if remainder > halfway || (remainder == halfway && half & 1 == 1) { half += 1 }
            return sign | UInt16(half)
        }
        var half = UInt32(e) << 10 | (mantissa >> 13)
        let remainder = mantissa & 0x1FFF
        if remainder > 0x1000 || (remainder == 0x1000 && half & 1 == 1) { half += 1 }
        return sign | UInt16(half)
    }
}
