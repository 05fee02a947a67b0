/// The audio front end of TFLite Micro's signal library: the custom ops (`SignalWindow`,
/// `SignalRfft`, `SignalFilterBank`, ...) that turn a frame of int16 audio into log-mel
/// features. Each op family lives in its own file as an extension of this namespace; the
/// arithmetic follows TFLite Micro's fixed-point code bit for bit, wrap-arounds included,
/// because its int8 feature goldens are exact.
public enum AudioFrontend {
    /// The number of bits needed to write `x` (its highest set bit, counted from 1), and 32
    /// for zero: TFLite Micro's `MostSignificantBit32` as GCC and Clang build it
    /// (`32 - __builtin_clz(x)`, with zero special-cased to 32), which sets FFT auto-scaling
    /// of a silent frame to zero bits.
    @inline(__always)
    static func mostSignificantBit(_ x: UInt32) -> Int {
        x == 0 ? 32 : 32 - x.leadingZeroBitCount
    }
}
