#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The options of a LOCAL_RESPONSE_NORMALIZATION node.
public struct LocalResponseNormalizationParams: Sendable, Equatable {
    /// Half-width of the channel window.
    public var radius: Int
    /// Additive bias.
    public var bias: Float
    /// Scale of the sum of squares.
    public var alpha: Float
    /// Exponent.
    public var beta: Float

    /// Creates the options.
    public init(radius: Int, bias: Float, alpha: Float, beta: Float) {
        (self.radius, self.bias, self.alpha, self.beta) = (radius, bias, alpha, beta)
    }
}

/// Float LOCAL_RESPONSE_NORMALIZATION across channels (the last axis):
/// `y[c] = x[c] * (bias + alpha * sum_{c' in [c-r, c+r]} x[c']^2) ^ -beta`, the window clipped to
/// the channels, as TFLite's optimised kernel computes it.
public enum LocalResponseNormalization {
    /// Normalises `rows` rows of `depth` channels.
    public static func apply(params: LocalResponseNormalizationParams, input: UnsafePointer<Float>,
                             rows: Int, depth: Int, output: UnsafeMutablePointer<Float>) {
        for r in 0..<rows {
            let x = input + r * depth, y = output + r * depth
            for c in 0..<depth {
                let lo = Swift.max(0, c - params.radius), hi = Swift.min(depth, c + params.radius + 1)
                var sum: Float = 0
                if lo < hi { for k in lo..<hi { sum += x[k] * x[k] } }
                y[c] = x[c] * powf(params.bias + params.alpha * sum, -params.beta)
            }
        }
    }
}
