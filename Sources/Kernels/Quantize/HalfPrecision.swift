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
