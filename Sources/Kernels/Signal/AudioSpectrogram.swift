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

    /// Nil when the window is shorter than two samples, the stride below one, or the window too
    /// long for a 32-bit FFT length.
    public init?(window: Int, stride: Int) {
        guard window >= 2, stride >= 1, window <= 1 << 30 else { return nil }
        self.window = window
        self.stride = stride
        var n = 1
        while n < window { n <<= 1 }
        fftLength = n
        let pi = atan(1.0) * 4
        hann = (0..<window).map { 0.5 - 0.5 * cos(2 * pi * Double($0) / Double(window)) }
    }

    public var bins: Int { 1 + fftLength / 2 }

    /// Frames a signal of `samples` samples yields.
    public func frames(samples: Int) -> Int { samples < window ? 0 : 1 + (samples - window) / stride }

    /// `input` is `[samples, channels]`; `output` is `[channels, frames, bins]`.
    public func run(input: UnsafePointer<Float>, samples: Int, channels: Int, magnitudeSquared: Bool,
                    output: UnsafeMutablePointer<Float>) {
        let frameCount = frames(samples: samples)
        var re = [Double](repeating: 0, count: fftLength), im = [Double](repeating: 0, count: fftLength)
        for channel in 0..<channels {
            for frame in 0..<frameCount {
                for j in 0..<fftLength {
                    re[j] = j < window ? Double(input[(frame * stride + j) * channels + channel]) * hann[j] : 0
                    im[j] = 0
                }
                FFT.forward(real: &re, imaginary: &im)
                let row = output + (channel * frameCount + frame) * bins
                for k in 0..<bins {
                    let power = Float(re[k] * re[k] + im[k] * im[k])
                    row[k] = magnitudeSquared ? power : power.squareRoot()
                }
            }
        }
    }
}

/// An in-place iterative radix-2 complex FFT in double precision (length a power of two).
enum FFT {
    static func forward(real re: inout [Double], imaginary im: inout [Double]) {
        let n = re.count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j { re.swapAt(i, j); im.swapAt(i, j) }
        }
        var length = 2
        while length <= n {
            let angle = -2 * Double.pi / Double(length)
            for k in 0..<(length / 2) {
                let wr = cos(angle * Double(k)), wi = sin(angle * Double(k))
                var start = 0
                while start < n {
                    let a = start + k, b = a + length / 2
                    let tr = re[b] * wr - im[b] * wi, ti = re[b] * wi + im[b] * wr
                    re[b] = re[a] - tr; im[b] = im[a] - ti
                    re[a] += tr; im[a] += ti
                    start += length
                }
            }
            length <<= 1
        }
    }
}
