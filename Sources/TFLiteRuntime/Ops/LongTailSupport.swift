import Kernels

/// Names a node in errors its kernel raises at run time, when a value (an index, a length)
/// read from a tensor turns out to be invalid.
struct NodeFailure: Sendable {
    let node: Int
    let op: String

    /// The run-time error for `error`, naming the node.
    func callAsFunction(_ error: KernelError) -> InterpreterError {
        .invokeFailed(node: node, op: op, reason: error.description)
    }

    /// A run-time error with a message of its own.
    func callAsFunction(_ reason: String) -> InterpreterError {
        .invokeFailed(node: node, op: op, reason: reason)
    }
}

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

/// An integer scalar input (int32 or int64) read when the kernel runs, for inputs such as
/// `k` or `depth` that are not constant at prepare.
struct RunTimeInteger: Sendable {
    let tensor: Int
    let wide: Bool

    /// Describes input `i` of `ctx`, which must be an int32 or int64 scalar (or one element).
    init(_ ctx: PrepareContext, input i: Int, what: String) throws(InterpreterError) {
        let t = try ctx.input(i)
        guard t.type == .int32 || t.type == .int64, t.elementCount == 1 else {
            throw ctx.invalid("\(what) (input \(i)) must be one int32 or int64 value, is \(t.type) \(t.shape)")
        }
        tensor = t.index
        wide = t.type == .int64
    }

    /// The value in the running subgraph.
    func read(_ c: InvokeContext) -> Int {
        wide ? Int(truncatingIfNeeded: c.data(tensor, as: Int64.self)[0]) : Int(c.data(tensor, as: Int32.self)[0])
    }
}
