extension PrepareContext {
    /// The error maker kernels of this node capture.
    var failure: NodeFailure { NodeFailure(node: nodeIndex, op: opName) }

    /// Resolves a possibly negative axis against `rank` (`-1` is the last axis).
    func resolveAxis(_ axis: Int, rank: Int, what: String = "axis") throws(InterpreterError) -> Int {
        let a = axis < 0 ? axis + rank : axis
        guard a >= 0, a < rank else { throw invalid("\(what) \(axis) is out of range for rank \(rank)") }
        return a
    }

    /// A constant scalar (or one-element) integer input.
    func constantInteger(input i: Int, what: String) throws(InterpreterError) -> Int {
        let values = try constantIntegers(input: i)
        guard values.count == 1 else { throw invalid("\(what) (input \(i)) must hold one value, holds \(values.count)") }
        return values[0]
    }
}
