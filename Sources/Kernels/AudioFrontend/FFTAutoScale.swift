extension AudioFrontend {
    /// `SignalFftAutoScale`: shifts the frame left by as many bits as its largest magnitude
    /// leaves free, so the fixed-point FFT works at full precision, and returns that shift
    /// (which `SignalFilterBankSquareRoot` later undoes).
    /// - Precondition: `output.count == input.count`.
    public static func fftAutoScale(input: UnsafeBufferPointer<Int16>, output: UnsafeMutableBufferPointer<Int16>) -> Int32 {
        let bits = max(0, 16 - mostSignificantBit(UInt32(truncatingIfNeeded: Int32(maxMagnitude(input)))) - 1)
        for i in input.indices { output[i] = input[i] &* Int16(truncatingIfNeeded: 1 << bits) }
        return Int32(bits)
    }

    /// The largest magnitude in `values`, as TFLite Micro's `MaxAbs16` computes it: negating
    /// -32768 wraps to -32768, whose sign-extended bits leave no room to scale.
    static func maxMagnitude(_ values: UnsafeBufferPointer<Int16>) -> Int16 {
        var largest: Int16 = 0
        for v in values {
            if v > largest {
                largest = v
            } else if -Int32(v) > Int32(largest) {
                largest = Int16(truncatingIfNeeded: -Int32(v))
            }
        }
        return largest
    }
}
