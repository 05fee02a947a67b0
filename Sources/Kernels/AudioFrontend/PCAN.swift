extension AudioFrontend {
    /// Entries a PCAN gain table needs: a noise estimate of 0, 1 or 2 reads its own entry; a
    /// larger one with highest set bit k (2...32) reads the three coefficients from entry
    /// 4k - 6, so the last read is entry 124 (TFLite Micro's tables have exactly 125).
    public static let pcanGainTableCount = 4 * 32 - 6 + 3

    /// `SignalPCAN`, per-channel energy normalisation: divides each channel by a power of
    /// its noise estimate (looked up in `gainTable`, a piecewise quadratic over octaves),
    /// then compresses the result with `x² / 4` below 2 and `x - 1` above. Fixed point as in
    /// TFLite Micro: the gain has 12 fractional bits after `snrShift`, the output 6.
    /// - Precondition: equal counts, `gainTable.count >= pcanGainTableCount`, `0 <= snrShift < 64`.
    public static func pcan(input: UnsafeBufferPointer<UInt32>, noiseEstimate: UnsafeBufferPointer<UInt32>,
                            gainTable: UnsafeBufferPointer<Int16>, snrShift: Int, output: UnsafeMutableBufferPointer<UInt32>) {
        for i in input.indices {
            // The int16 gain widens to 32 bits with its sign, as C's conversion does.
            let gain = UInt32(bitPattern: Int32(wideDynamicGain(noiseEstimate[i], table: gainTable)))
            let snr = UInt32(truncatingIfNeeded: (UInt64(input[i]) &* UInt64(gain)) >> UInt64(snrShift))
            output[i] = pcanShrink(snr)
        }
    }

    /// TFLite Micro's `WideDynamicFunction`: the gain for noise estimate `x`, interpolated
    /// quadratically within the octave of `x` from ten fractional bits of its mantissa.
    static func wideDynamicGain(_ x: UInt32, table: UnsafeBufferPointer<Int16>) -> Int16 {
        if x <= 2 { return table[Int(x)] }
        let interval = mostSignificantBit(x)
        let base = 4 * interval - 6
        let mantissa = interval < 11 ? x << UInt32(11 - interval) : x >> UInt32(interval - 11)
        let fraction = Int32(mantissa & 0x3FF)
        var result = (Int32(table[base + 2]) * fraction) >> 5
        result &+= Int32(bitPattern: UInt32(bitPattern: Int32(table[base + 1])) << 5)
        result = result &* fraction
        result = (result &+ (1 << 14)) >> 15
        result &+= Int32(table[base])
        return Int16(truncatingIfNeeded: result)
    }

    /// TFLite Micro's `PcanShrink`: `x² / 4` for `x < 2`, `x - 1` above, from 12 fractional
    /// bits to 6.
    static func pcanShrink(_ x: UInt32) -> UInt32 {
        x < 2 << 12 ? (x * x) >> 20 : (x >> 6) &- (1 << 6)
    }
}
