#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension AudioFrontend {
    /// `SignalFilterBankLog`: `outputScale * ln(x << correctionBits)` per channel, saturated
    /// to 32767 (0 for inputs that scale to 0 or 1), in TFLite Micro's fixed-point logarithm.
    /// Its last multiplication is in 32 bits and wraps for large scales, as TFLite Micro's does.
    /// - Precondition: `output.count == input.count`, `0 <= correctionBits < 32`.
    public static func filterBankLog(input: UnsafeBufferPointer<UInt32>, outputScale: UInt32, correctionBits: Int,
                                     output: UnsafeMutableBufferPointer<Int16>) {
        for i in input.indices {
            let scaled = input[i] << UInt32(correctionBits)
            output[i] = scaled > 1 ? Int16(min(log32(scaled, scale: outputScale), UInt32(Int16.max))) : 0
        }
    }

    /// The correction `65536 * (log2(1 + f) - f)` at f = k / 128, k = 0...128, rounded: the
    /// curve the logarithm adds to the mantissa's linear approximation (TFLite Micro stores
    /// these same values as `kLogLut`).
    static let logCorrection: [Int32] = (0...128).map { k in
        let f = Double(k) / 128
        return Int32(floor(0.5 + 65536 * (log2(1 + f) - f)))
    }

    /// TFLite Micro's `Log32`: `scale * ln(x)` with 16 fractional bits of log2 in between.
    /// - Precondition: `x > 1`.
    static func log32(_ x: UInt32, scale: UInt32) -> UInt32 {
        let integer = UInt32(mostSignificantBit(x) - 1)
        let log2 = (integer << 16) &+ log2Fraction(x, integer: integer)
        let natural = UInt32(truncatingIfNeeded: (UInt64(45426) * UInt64(log2) + 32768) >> 16)
        return (scale &* natural &+ 32768) >> 16
    }

    /// The fractional part of log2(x), 16 bits, from the mantissa below the leading bit and
    /// a linear interpolation in ``logCorrection``.
    static func log2Fraction(_ x: UInt32, integer: UInt32) -> UInt32 {
        var fraction = Int32(truncatingIfNeeded: Int64(x) - (Int64(1) << Int64(integer)))
        if integer < 16 {
            fraction <<= Int32(16 - integer)
        } else {
            fraction >>= Int32(integer - 16)
        }
        let segment = Int(fraction >> 9)
        let c0 = logCorrection[segment], c1 = logCorrection[segment + 1]
        let offset = ((c1 - c0) * (fraction - Int32(512 * segment))) >> 16
        return UInt32(bitPattern: fraction + c0 + offset)
    }
}
