#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `Mfcc` custom op: mel-frequency cepstral coefficients of spectrogram frames. Each
/// frame's magnitudes (roots of the squared-magnitude bins) are summed into triangular mel
/// bands between the frequency limits, floored at 1e-12, logged and transformed by an
/// orthonormal DCT-II, all in double as TensorFlow's kernel does.
public struct Mfcc: Sendable {
    public let coefficients: Int
    let channels: Int, startIndex: Int, endIndex: Int
    let bandMapper: [Int], weights: [Double], cosines: [Double]

    static func mel(_ hz: Double) -> Double { 1127.0 * log1p(hz / 700.0) }

    /// Nil for settings TensorFlow's filterbank or DCT refuses: no channels, a non-positive
    /// rate, fewer than two bins, limits out of order or negative, more coefficients than
    /// channels.
    public init?(bins: Int, sampleRate: Double, lowerLimit: Double, upperLimit: Double, channels: Int, coefficients: Int) {
        guard channels >= 1, sampleRate > 0, bins >= 2, lowerLimit >= 0, upperLimit > lowerLimit,
              coefficients >= 1, coefficients <= channels, bins <= 1 << 24, channels <= 1 << 16 else { return nil }
        self.channels = channels
        self.coefficients = coefficients
        let melLow = Self.mel(lowerLimit), spacing = (Self.mel(upperLimit) - melLow) / Double(channels + 1)
        let centres = (0...channels).map { melLow + spacing * Double($0 + 1) }
        let hzPerBin = 0.5 * sampleRate / Double(bins - 1)
        let start = Double(1.5 + lowerLimit / hzPerBin), end = upperLimit / hzPerBin
        guard start < Double(Int32.max), end < Double(Int32.max) else { return nil }
        startIndex = Int(start)
        endIndex = Int(end)
        var mapper = [Int](repeating: -2, count: bins), w = [Double](repeating: 0, count: bins)
        var channel = 0
        for i in 0..<bins where i >= startIndex && i <= endIndex {
            let m = Self.mel(Double(i) * hzPerBin)
            while channel < channels && centres[channel] < m { channel += 1 }
            mapper[i] = channel - 1
            let c = mapper[i]
            w[i] = c >= 0 ? (centres[c + 1] - m) / (centres[c + 1] - centres[c]) : (centres[0] - m) / (centres[0] - melLow)
        }
        bandMapper = mapper
        weights = w
        let norm = (2.0 / Double(channels)).squareRoot(), arg = atan(1.0) * 4 / Double(channels)
        var table = [Double](repeating: 0, count: coefficients * channels)
        for i in 0..<coefficients {
            for j in 0..<channels { table[i * channels + j] = norm * cos(Double(i) * arg * (Double(j) + 0.5)) }
        }
        cosines = table
    }

    /// One frame of `bins` squared magnitudes to `coefficients` values. A frame with no bin
    /// past the upper band edge yields zeros, as TensorFlow's kernel does.
    /// - Parameter bands: scratch for one double per filterbank channel.
    public func run(frame: UnsafePointer<Float>, bins: Int, output: UnsafeMutablePointer<Float>, bands: UnsafeMutablePointer<Double>) {
        guard bins > endIndex else {
            output.update(repeating: 0, count: coefficients)
            return
        }
        bands.update(repeating: 0, count: channels)
        for i in startIndex..<max(startIndex, endIndex + 1) {
            let magnitude = Double(frame[i]).squareRoot(), weighted = magnitude * weights[i]
            let c = bandMapper[i]
            if c >= 0 { bands[c] += weighted }
            if c + 1 < channels { bands[c + 1] += magnitude - weighted }
        }
        for c in 0..<channels { bands[c] = log(max(bands[c], 1e-12)) }
        for i in 0..<coefficients {
            var sum = 0.0
            for j in 0..<channels { sum += cosines[i * channels + j] * bands[j] }
            output[i] = Float(sum)
        }
    }
}
