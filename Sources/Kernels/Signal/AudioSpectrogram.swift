#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `AudioSpectrogram` custom op: per channel, frames of `window` samples every `stride`
/// samples, each weighted by a periodic Hann window, zero-padded to the next power of two and
/// transformed; the output is each bin's squared magnitude (or its root). Arithmetic is in
/// double until the squared magnitude, which is rounded to float, as in TensorFlow's kernel.
public struct AudioSpectrogram: Sendable {
    public let window: Int, stride: Int, fftLength: Int
    let hann: [Double]
    let fft: ComplexFFT

    /// Nil when the window is shorter than two samples, the stride below one, or the window too
    /// long for a 32-bit FFT length.
    public init?(window: Int, stride: Int) {
        guard window >= 2, stride >= 1, window <= 1 << 30 else { return nil }
        self.window = window
        self.stride = stride
        var n = 1
        while n < window { n <<= 1 }
        fftLength = n
        fft = ComplexFFT(count: n)
        let pi = atan(1.0) * 4
        hann = (0..<window).map { 0.5 - 0.5 * cos(2 * pi * Double($0) / Double(window)) }
    }

    public var bins: Int { 1 + fftLength / 2 }

    /// Frames a signal of `samples` samples yields.
    public func frames(samples: Int) -> Int { samples < window ? 0 : 1 + (samples - window) / stride }

    /// Doubles of scratch `run` needs.
    public var workCount: Int { 2 * fftLength }

    /// `input` is `[samples, channels]`; `output` is `[channels, frames, bins]`.
    /// - Parameter work: scratch for `workCount` doubles.
    public func run(input: UnsafePointer<Float>, samples: Int, channels: Int, magnitudeSquared: Bool,
                    output: UnsafeMutablePointer<Float>, work: UnsafeMutablePointer<Double>) {
        let frameCount = frames(samples: samples)
        for channel in 0..<channels {
            for frame in 0..<frameCount {
                for j in 0..<fftLength {
                    work[2 * j] = j < window ? Double(input[(frame * stride + j) * channels + channel]) * hann[j] : 0
                    work[2 * j + 1] = 0
                }
                fft.forward(work)
                let row = output + (channel * frameCount + frame) * bins
                for k in 0..<bins {
                    let re = work[2 * k], im = work[2 * k + 1]
                    let power = Float(re * re + im * im)
                    row[k] = magnitudeSquared ? power : power.squareRoot()
                }
            }
        }
    }
}
