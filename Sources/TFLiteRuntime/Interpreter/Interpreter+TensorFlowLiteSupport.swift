/// What the `TensorFlowLite` module (TensorFlowLiteSwift's API) needs beyond the public
/// interface: LiteRT's non-strict resize, and which outputs cannot be read before `invoke()`.
extension Interpreter {
    /// Changes input `index` to `shape`. `strict: false` is LiteRT's `ResizeInputTensor`: any
    /// rank and extents, checked against the graph by `allocateTensors()`; `strict: true` is
    /// ``resizeInput(at:to:)``.
    package func resizeInput(at index: Int, to shape: [Int], strict: Bool) throws(InterpreterError) {
        guard index >= 0, index < inputTensorCount else {
            throw .invalidTensorIndex(index: index, count: inputTensorCount, role: "input")
        }
        try main.resizeInput(index, to: shape, strict: strict)
    }

    /// Whether output `index` is shaped by input values (WHERE, UNIQUE, NMS ...): after
    /// `allocateTensors()` its shape and bytes are only known once `invoke()` has run.
    package func outputShapeDependsOnValues(at index: Int) -> Bool {
        guard index >= 0, index < outputTensorCount else { return false }
        return main.tensors[main.outputs[index]].isDynamic
    }
}
