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
}

/// A kernel error raised at run time (an index read from a tensor), as the interpreter
/// reports it.
func invokeError(_ error: KernelError, node: Int, op: String) -> InterpreterError {
    .invokeFailed(node: node, op: op, reason: error.description)
}
