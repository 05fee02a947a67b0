import Kernels

extension FusedActivation {
    /// The activation an op's options name.
    init(_ f: Schema.ActivationFunctionType) {
        switch f {
        case .none: self = .none
        case .relu: self = .relu
        case .reluN1To1: self = .reluN1To1
        case .relu6: self = .relu6
        case .tanh: self = .tanh
        case .signBit: self = .signBit
        }
    }
}

extension PrepareContext {
    /// The float clamp for a fused activation; TANH and SIGN_BIT are not clamps and no
    /// float kernel fuses them, so they are refused here.
    func floatActivation(_ f: Schema.ActivationFunctionType) throws(InterpreterError) -> ActivationRange<Float> {
        guard let range = FusedActivation(f).floatRange else {
            throw unsupported("fused activation \(f) is not supported")
        }
        return range
    }

    /// The fused activation of ADD/SUB/MUL/DIV options (NONE for ops without one).
    var binaryActivation: Schema.ActivationFunctionType {
        switch options {
        case .addOptions(let o)?: return o.fusedActivationFunction
        case .subOptions(let o)?: return o.fusedActivationFunction
        case .mulOptions(let o)?: return o.fusedActivationFunction
        case .divOptions(let o)?: return o.fusedActivationFunction
        default: return .none
        }
    }
}
