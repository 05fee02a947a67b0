extension AudioFrontend {
    /// `SignalFilterBankSquareRoot`: the rounded integer square root of each channel, shifted
    /// right by `scaleBits` (the FFT auto-scale shift, whose square the energies carry twice).
    /// - Precondition: `output.count == input.count`, `0 <= scaleBits < 32`.
    public static func filterBankSquareRoot(input: UnsafeBufferPointer<UInt64>, scaleBits: Int,
                                            output: UnsafeMutableBufferPointer<UInt32>) {
        for i in input.indices { output[i] = squareRoot(input[i]) >> UInt32(scaleBits) }
    }

    /// TFLite Micro's `Sqrt64`: values below 2^32 take the 32-bit root (which rounds slightly
    /// differently near 2^32, as TFLite Micro's does).
    static func squareRoot(_ value: UInt64) -> UInt32 {
        if value >> 32 == 0 { return UInt32(squareRoot(UInt32(value))) }
        return UInt32(truncatingIfNeeded: digitRoot(value))
    }

    /// TFLite Micro's `Sqrt32`.
    static func squareRoot(_ value: UInt32) -> UInt16 {
        UInt16(truncatingIfNeeded: digitRoot(value))
    }

    /// TFLite Micro's digit-by-digit square root at the width of `T`, rounded up when the
    /// remainder exceeds the root (unless the root is already the largest half-width value).
    static func digitRoot<T: FixedWidthInteger & UnsignedInteger>(_ value: T) -> T {
        guard value != 0 else { return 0 }
        let width = T.bitWidth
        var num = value, root: T = 0
        let leading = value.leadingZeroBitCount | 1
        var bit: T = 1 << (width - 1 - leading)
        for _ in 0..<((width - 1 - leading) / 2 + 1) {
            if num >= root &+ bit {
                num &-= root &+ bit
                root = (root >> 1) &+ bit
            } else {
                root >>= 1
            }
            bit >>= 2
        }
        if num > root && root != T.max >> (width / 2) { root &+= 1 }
        return root
    }
}
