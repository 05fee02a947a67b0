#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An in-place iterative radix-2 forward FFT in double precision, shared by RFFT2D and
/// AudioSpectrogram: a power-of-two length and its twiddles, computed once.
public struct ComplexFFT: Sendable {
    public let count: Int
    /// `exp(-2πi k / count)` for `k < count / 2`, as (cos, sin).
    let twiddles: [Double]

    /// - Precondition: `count` is a power of two.
    public init(count: Int) {
        precondition(count > 0 && count & (count - 1) == 0)
        self.count = count
        twiddles = (0..<count / 2).flatMap { k -> [Double] in
            let angle = -2 * Double.pi * Double(k) / Double(count)
            return [cos(angle), sin(angle)]
        }
    }

    /// Transforms `count` interleaved (real, imaginary) values in place.
    public func forward(_ data: UnsafeMutablePointer<Double>) {
        let n = count
        guard n > 1 else { return }
        // Bit-reversal permutation.
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j {
                swap(&data[2 * i], &data[2 * j])
                swap(&data[2 * i + 1], &data[2 * j + 1])
            }
        }
        // Butterflies: stage `size` combines pairs `size / 2` apart with twiddle stride n / size.
        var size = 2
        while size <= n {
            let halfSize = size / 2, step = n / size
            var start = 0
            while start < n {
                for k in 0..<halfSize {
                    let c = twiddles[2 * k * step], s = twiddles[2 * k * step + 1]
                    let a = start + k, b = a + halfSize
                    let br = data[2 * b] * c - data[2 * b + 1] * s
                    let bi = data[2 * b] * s + data[2 * b + 1] * c
                    data[2 * b] = data[2 * a] - br
                    data[2 * b + 1] = data[2 * a + 1] - bi
                    data[2 * a] += br
                    data[2 * a + 1] += bi
                }
                start += size
            }
            size *= 2
        }
    }
}
