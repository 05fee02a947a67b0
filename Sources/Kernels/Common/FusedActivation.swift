#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The fused activations TFLite ops carry in their options (`ActivationFunctionType`).
public enum FusedActivation: Sendable, Equatable {
    case none, relu, reluN1To1, relu6, tanh, signBit

    /// The float clamp for this activation; nil for activations that are not a clamp
    /// (TANH, SIGN_BIT), which ops must reject or apply separately.
    public var floatRange: ActivationRange<Float>? {
        switch self {
        case .none: return ActivationRange(min: -.infinity, max: .infinity)
        case .relu: return ActivationRange(min: 0, max: .infinity)
        case .reluN1To1: return ActivationRange(min: -1, max: 1)
        case .relu6: return ActivationRange(min: 0, max: 6)
        case .tanh, .signBit: return nil
        }
    }
}

extension FusedActivation {
    /// The activation of one float, as the recurrent cells (LSTM, RNN) apply it.
    @inline(__always)
    public func apply(_ x: Float) -> Float {
        switch self {
        case .none: return x
        case .relu: return Swift.max(x, 0)
        case .reluN1To1: return Swift.min(Swift.max(x, -1), 1)
        case .relu6: return Swift.min(Swift.max(x, 0), 6)
        case .tanh: return tanhf(x)
        case .signBit: return x.sign == .minus ? 1 : 0
        }
    }
}
