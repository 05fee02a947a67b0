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
        // A folded activation node (`SubgraphExecutor+ActivationFolding`) replaces NONE.
        let f = foldedActivation ?? f
        guard let range = FusedActivation(f).floatRange else {
            throw unsupported("fused activation \(f) is not supported")
        }
        return range
    }

    /// The padding scheme of a windowed op.
    func paddingScheme(_ p: Schema.Padding) -> PaddingScheme {
        p == .same ? .same : .valid
    }

    /// A constant integer vector input (shape, axes, sizes) as `[Int]`; throws when the input
    /// is missing, not int32/int64, or not constant.
    func constantIntegers(input i: Int) throws(InterpreterError) -> [Int] {
        let t = try input(i)
        switch t.type {
        case .int32:
            guard let v = t.constantValues(as: Int32.self) else { throw unsupported("input \(i) must be a constant (it is computed at run time)") }
            return v.map(Int.init)
        case .int64:
            guard let v = t.constantValues(as: Int64.self) else { throw unsupported("input \(i) must be a constant (it is computed at run time)") }
            return v.map { Int(truncatingIfNeeded: $0) }
        default:
            throw invalid("input \(i) must be int32 or int64, is \(t.type)")
        }
    }
}
