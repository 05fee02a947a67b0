extension AudioFrontend {
    /// The parameters of `SignalFilterBankSpectralSubtraction`. Coefficients are fractions
    /// scaled by `2^spectralSubtractionBits`.
    public struct SpectralSubtractionConfig: Sendable {
        /// Weight of the new frame in the noise estimate (even channels), and of the old
        /// estimate.
        public var smoothing: UInt32, oneMinusSmoothing: UInt32
        /// The same for odd channels.
        public var alternateSmoothing: UInt32, alternateOneMinusSmoothing: UInt32
        /// The least fraction of the signal left after subtraction.
        public var minSignalRemaining: UInt32
        /// Extra fractional bits the estimate keeps (below 32).
        public var smoothingBits: Int
        /// The coefficients' scale (below 64).
        public var spectralSubtractionBits: Int
        /// Whether an estimate above the signal is lowered to it.
        public var clamping: Bool

        public init(smoothing: UInt32, oneMinusSmoothing: UInt32, alternateSmoothing: UInt32,
                    alternateOneMinusSmoothing: UInt32, minSignalRemaining: UInt32, smoothingBits: Int,
                    spectralSubtractionBits: Int, clamping: Bool) {
            self.smoothing = smoothing
            self.oneMinusSmoothing = oneMinusSmoothing
            self.alternateSmoothing = alternateSmoothing
            self.alternateOneMinusSmoothing = alternateOneMinusSmoothing
            self.minSignalRemaining = minSignalRemaining
            self.smoothingBits = smoothingBits
            self.spectralSubtractionBits = spectralSubtractionBits
            self.clamping = clamping
        }
    }

    /// `SignalFilterBankSpectralSubtraction`: updates each channel's running noise estimate (a
    /// one-pole low-pass of the signal, kept in `noiseEstimate` between frames) and subtracts
    /// it from the signal, keeping at least `minSignalRemaining` of it. Arithmetic is TFLite
    /// Micro's: 32-bit values, 64-bit products, results truncated to 32 bits.
    /// - Precondition: all three buffers have the same count; the config's bit counts are in
    ///   range.
    public static func spectralSubtraction(input: UnsafeBufferPointer<UInt32>, config: SpectralSubtractionConfig,
                                           noiseEstimate: UnsafeMutableBufferPointer<UInt32>,
                                           output: UnsafeMutableBufferPointer<UInt32>) {
        let smoothingBits = UInt32(config.smoothingBits), scaleBits = UInt64(config.spectralSubtractionBits)
        for i in input.indices {
            let odd = i & 1 == 1
            let smoothing = UInt64(odd ? config.alternateSmoothing : config.smoothing)
            let keep = UInt64(odd ? config.alternateOneMinusSmoothing : config.oneMinusSmoothing)
            let scaledSignal = input[i] << smoothingBits
            noiseEstimate[i] = UInt32(truncatingIfNeeded:
                (UInt64(scaledSignal) &* smoothing &+ UInt64(noiseEstimate[i]) &* keep) >> scaleBits)
            var estimate = noiseEstimate[i]
            if estimate > scaledSignal {
                estimate = scaledSignal
                if config.clamping { noiseEstimate[i] = estimate }
            }
            let floor = UInt32(truncatingIfNeeded: (UInt64(input[i]) &* UInt64(config.minSignalRemaining)) >> scaleBits)
            let subtracted = (scaledSignal - estimate) >> smoothingBits
            output[i] = max(subtracted, floor)
        }
    }
}
