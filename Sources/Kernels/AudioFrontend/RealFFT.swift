#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension AudioFrontend {
    /// `SignalRfft`: the FFT of real frames, as kiss-fft's `kiss_fftr` computes it. A frame of
    /// `length` samples is read as `length / 2` complex values, transformed by the complex FFT,
    /// and split into the `length / 2 + 1` non-negative frequencies. Output values are
    /// interleaved (real, imaginary). Fixed-point results are scaled down by `length` (each
    /// butterfly divides by its radix), as TFLite Micro's are.
    public struct RealFFT<Scalar: KissFFTScalar>: Sendable {
        /// The transform length in real samples.
        public let length: Int
        let complex: KissFFT<Scalar>
        /// `exp(-πi ((k + 1) / half + 1/2))` for `k < half / 2`, interleaved: the twiddles that
        /// split the packed transform into even and odd samples' spectra.
        let splitTwiddles: [Scalar]

        /// A transform of `length` samples; nil unless `length` is even and `length / 2` a
        /// product of 2, 3 and 5 (other radices are beyond what TFLite Micro runs).
        public init?(length: Int) {
            guard length >= 4, length % 2 == 0, let complex = KissFFT<Scalar>(count: length / 2) else { return nil }
            self.length = length
            self.complex = complex
            let half = length / 2
            var split: [Scalar] = []
            split.reserveCapacity(half)
            for i in 0..<half / 2 {
                let phase = -Double.pi * (Double(i + 1) / Double(half) + 0.5)
                split.append(Scalar.kissTwiddle(cos(phase)))
                split.append(Scalar.kissTwiddle(sin(phase)))
            }
            splitTwiddles = split
        }

        /// Scalars of output per frame: `length / 2 + 1` complex values.
        public var outputCount: Int { length + 2 }

        /// Scalars of scratch ``transform(frames:input:frameLength:output:scratch:)`` needs.
        public var scratchCount: Int { 2 * length }

        // Specialised here for each sample type: called unspecialised from another module,
        // every sample operation would go through the protocol's witness table.
        /// Transforms `frames` frames of `frameLength` samples, each zero-padded to `length`.
        /// - Precondition: `frameLength <= length`; `output` holds `frames * outputCount` scalars.
        @_specialize(exported: true, where Scalar == Int16)
        @_specialize(exported: true, where Scalar == Int32)
        @_specialize(exported: true, where Scalar == Float)
        public func transform(frames: Int, input: UnsafePointer<Scalar>, frameLength: Int,
                              output: UnsafeMutablePointer<Scalar>, scratch: UnsafeMutablePointer<Scalar>) {
            let padded = scratch, spectrum = scratch + length
            for f in 0..<frames {
                padded.update(from: input + f * frameLength, count: frameLength)
                (padded + frameLength).update(repeating: .zero, count: length - frameLength)
                complex.run(input: padded, output: spectrum)
                splitTwiddles.withUnsafeBufferPointer { split(spectrum, into: output + f * outputCount, twiddles: $0.baseAddress!) }
            }
        }

        typealias S = Scalar
        typealias FFT = KissFFT<Scalar>

        /// Recovers the real input's spectrum from the packed transform `z`: bin k combines
        /// `z[k]` and `conj(z[n - k])`, halved, with a split twiddle on their difference.
        func split(_ z: UnsafeMutablePointer<Scalar>, into out: UnsafeMutablePointer<Scalar>, twiddles: UnsafePointer<Scalar>) {
            let n = length / 2
            let dc = FFT.divided(FFT.load(z, 0), by: 2)
            FFT.store(out, 0, (S.kissAdd(dc.r, dc.i), .zero))
            FFT.store(out, n, (S.kissSubtract(dc.r, dc.i), .zero))
            guard n >= 2 else { return }
            for k in 1...n / 2 {
                let fpk = FFT.divided(FFT.load(z, k), by: 2)
                let mirrored = FFT.load(z, n - k)
                let fpnk = FFT.divided((mirrored.r, S.kissNegate(mirrored.i)), by: 2)
                let f1k = FFT.sum(fpk, fpnk), f2k = FFT.difference(fpk, fpnk)
                let tw = FFT.product(f2k, FFT.load(twiddles, k - 1))
                FFT.store(out, k, (S.kissHalfSum(f1k.r, tw.r), S.kissHalfSum(f1k.i, tw.i)))
                FFT.store(out, n - k, (S.kissHalfDifference(f1k.r, tw.r), S.kissHalfDifference(tw.i, f1k.i)))
            }
        }
    }
}
