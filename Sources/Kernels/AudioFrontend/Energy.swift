extension AudioFrontend {
    /// `SignalEnergy`: the squared magnitude `re² + im²` of the complex bins `start..<end` of
    /// an int16 spectrum (interleaved real, imaginary). The sum is formed in int32 as TFLite
    /// Micro forms it, so two full-scale parts wrap to 2^31. Bins outside the range are set to
    /// zero (TFLite Micro leaves them unwritten).
    /// - Precondition: `0 <= start`, `end <= output.count`, `spectrum.count >= 2 * output.count`.
    public static func energy(spectrum: UnsafeBufferPointer<Int16>, start: Int, end: Int, output: UnsafeMutableBufferPointer<UInt32>) {
        output.update(repeating: 0)
        guard start < end else { return }
        for i in start..<end {
            let re = Int32(spectrum[2 * i]), im = Int32(spectrum[2 * i + 1])
            output[i] = UInt32(bitPattern: (re * re) &+ (im * im))
        }
    }
}
