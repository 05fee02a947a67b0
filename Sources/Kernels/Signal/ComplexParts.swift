#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// COMPLEX_ABS, REAL and IMAG over complex64 tensors (interleaved real, imaginary floats).
public enum ComplexParts {
    /// Which part of each complex value to extract.
    public enum Part: Sendable, Equatable, CaseIterable {
        /// REAL: the real part.
        case real
        /// IMAG: the imaginary part.
        case imaginary
        /// COMPLEX_ABS: the magnitude, `hypot(re, im)`.
        case magnitude
    }

    /// Writes one float per complex value of `input` (`count` values, `2 * count` floats).
    public static func run(_ part: Part, input: UnsafePointer<Float>, count: Int, output: UnsafeMutablePointer<Float>) {
        switch part {
        case .real: for i in 0..<count { output[i] = input[2 * i] }
        case .imaginary: for i in 0..<count { output[i] = input[2 * i + 1] }
        case .magnitude: for i in 0..<count { output[i] = hypotf(input[2 * i], input[2 * i + 1]) }
        }
    }
}
