extension AudioFrontend {
    /// `SignalWindow`: multiplies each frame of `window.count` samples by the window, shifts
    /// the 32-bit products right by `shift` and saturates them to int16.
    /// - Precondition: `input.count` is a multiple of `window.count`, `output.count ==
    ///   input.count`, `0 <= shift < 32`.
    public static func applyWindow(input: UnsafeBufferPointer<Int16>, window: UnsafeBufferPointer<Int16>, shift: Int,
                                   output: UnsafeMutableBufferPointer<Int16>) {
        let size = window.count
        guard size > 0 else { return }
        var start = 0
        while start < input.count {
            for i in 0..<size {
                let product = (Int32(input[start + i]) * Int32(window[i])) >> Int32(shift)
                output[start + i] = Int16(clamping: product)
            }
            start += size
        }
    }
}
