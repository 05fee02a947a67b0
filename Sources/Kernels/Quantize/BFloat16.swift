/// bfloat16 (the top half of a binary32) conversions, done on bits.
public enum BFloat16 {
    /// The float32 value of a bfloat16 bit pattern (exact).
    @inlinable
    public static func float(fromBits b: UInt16) -> Float { Float(bitPattern: UInt32(b) << 16) }

    /// The bfloat16 bit pattern nearest to `value`, ties to even, as Eigen's `bfloat16` (which
    /// LiteRT uses) rounds; a NaN stays a quiet NaN of the same sign.
    @inlinable
    public static func bits(from value: Float) -> UInt16 {
        let b = value.bitPattern
        if value.isNaN { return UInt16(truncatingIfNeeded: (b >> 16) | 0x40) }
        let rounding = 0x7FFF + ((b >> 16) & 1)
        return UInt16(truncatingIfNeeded: (b &+ rounding) >> 16)
    }
}
