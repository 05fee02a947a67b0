extension AudioFrontend {
    /// `SignalFilterBankSquareRoot`: the rounded integer square root of each channel, shifted
    /// right by `scaleBits` (the FFT auto-scale shift, whose square the energies carry twice).
    /// - Precondition: `output.count == input.count`, `0 <= scaleBits < 32`.
    public static func filterBankSquareRoot(input: UnsafeBufferPointer<UInt64>, scaleBits: Int,
                                            output: UnsafeMutableBufferPointer<UInt32>) {
        for i in input.indices { output[i] = squareRoot(input[i]) >> UInt32(scaleBits) }
    }

    /// TFLite Micro's `Sqrt64`: digit-by-digit square root, rounded up when the remainder
    /// exceeds the root. Values below 2^32 take the 32-bit path (which rounds slightly
    /// differently near 2^32, as TFLite Micro's does).
    static func squareRoot(_ value: UInt64) -> UInt32 {
        if value >> 32 == 0 { return UInt32(squareRoot(UInt32(value))) }
        var num = value, root: UInt64 = 0
        let leading = (64 - mostSignificantBit(value)) | 1
        var bit: UInt64 = 1 << UInt64(63 - leading)
        for _ in 0..<((63 - leading) / 2 + 1) {
            if num >= root &+ bit {
                num &-= root &+ bit
                root = (root >> 1) &+ bit
            } else {
                root >>= 1
            }
            bit >>= 2
        }
        if num > root && root != 0xFFFF_FFFF { root &+= 1 }
        return UInt32(truncatingIfNeeded: root)
    }

    /// TFLite Micro's `Sqrt32`, the 32-bit digit-by-digit root.
    static func squareRoot(_ value: UInt32) -> UInt16 {
        guard value != 0 else { return 0 }
        var num = value, root: UInt32 = 0
        let leading = (32 - mostSignificantBit(value)) | 1
        var bit: UInt32 = 1 << UInt32(31 - leading)
        for _ in 0..<((31 - leading) / 2 + 1) {
            if num >= root &+ bit {
                num &-= root &+ bit
                root = (root >> 1) &+ bit
            } else {
                root >>= 1
            }
            bit >>= 2
        }
        if num > root && root != 0xFFFF { root &+= 1 }
        return UInt16(truncatingIfNeeded: root)
    }
}
