import Kernels

extension PrepareContext {
    /// Per-tensor affine parameters of a quantised tensor; throws when it has none.
    func affine(_ t: TensorInfo, role: String) throws(InterpreterError) -> AffineQuantization {
        guard let q = t.quantization, q.scales.count >= 1 else { throw invalid("\(role) is \(t.type) but has no quantization parameters") }
        guard q.scale > 0, q.scale.isFinite else { throw invalid("\(role) has scale \(q.scale); scales must be positive") }
        guard let zp = Int32(exactly: q.zeroPoint) else { throw invalid("\(role) zero point \(q.zeroPoint) out of range") }
        return AffineQuantization(scale: q.scale, zeroPoint: zp)
    }

    /// Scales of a weight tensor: one, or one per slice along `axis` (per-channel weights).
    func weightScales(_ t: TensorInfo, channels: Int, axis: Int) throws(InterpreterError) -> (scales: [Float], zeroPoint: Int32) {
        guard let q = t.quantization, !q.scales.isEmpty else { throw invalid("weights are \(t.type) but have no quantization parameters") }
        guard q.scales.count == 1 || (q.scales.count == channels && q.quantizedDimension == axis) else {
            throw invalid("weights have \(q.scales.count) scales along axis \(q.quantizedDimension); expected 1 or \(channels) along axis \(axis)")
        }
        guard q.scales.allSatisfy({ $0 > 0 && $0.isFinite }) else { throw invalid("weight scales must be positive") }
        guard let zp = Int32(exactly: q.zeroPoint) else { throw invalid("weight zero point \(q.zeroPoint) out of range") }
        return (q.scales.count == 1 ? [Float](repeating: q.scales[0], count: channels) : q.scales, zp)
    }

    /// The integer clamp of a fused activation on a quantised output of `type`.
    func quantizedActivation(_ f: Schema.ActivationFunctionType, output: AffineQuantization,
                             type: DataType) throws(InterpreterError) -> ActivationRange<Int32> {
        let (qmin, qmax) = try storageRange(type)
        guard let range = FusedActivation(f).quantizedRange(scale: output.scale, zeroPoint: output.zeroPoint, qmin: qmin, qmax: qmax) else {
            throw unsupported("fused activation \(f) on a quantised output")
        }
        return range
    }

    /// The representable range of a quantised storage type.
    func storageRange(_ type: DataType) throws(InterpreterError) -> (Int32, Int32) {
        switch type {
        case .int8: return (Int32(Int8.min), Int32(Int8.max))
        case .uInt8: return (0, 255)
        case .int16: return (Int32(Int16.min), Int32(Int16.max))
        default: throw unsupported("\(type) is not a quantised type")
        }
    }

    /// Requires every input in `inputs` and output 0 to share `type`.
    func requireSameType(_ type: DataType, inputs: [Int]) throws(InterpreterError) {
        for i in inputs {
            let t = try input(i).type
            guard t == type else { throw invalid("input \(i) has type \(t), expected \(type)") }
        }
        let o = try output(0).type
        guard o == type else { throw invalid("output has type \(o), expected \(type)") }
    }
}
