/// The signature counterparts of `Interpreter+TensorFlowLiteSupport.swift`, for the
/// `TensorFlowLite` module.
extension SignatureRunner {
    /// Resizes the named input; `strict: false` allows any rank and extents (LiteRT's
    /// `ResizeInputTensor`), checked against the graph by `allocateTensors()`.
    package func resizeInput(named name: String, to shape: [Int], strict: Bool) throws(InterpreterError) {
        let t = try tensor(name, in: inputTensors)
        guard let k = executor.inputs.firstIndex(of: t) else { throw .signatureNotFound(name) }
        try executor.resizeInput(k, to: shape, strict: strict)
    }

    /// Whether the named output is shaped by input values, so unknown until `invoke()` has run.
    package func outputShapeDependsOnValues(named name: String) -> Bool {
        guard let t = outputTensors[name] else { return false }
        return executor.tensors[t].isDynamic
    }
}
