/// Why an interpreter could not be built, prepared or run. Messages name the tensor or the
/// node (index and op) concerned.
public enum InterpreterError: Error, Equatable, CustomStringConvertible {
    /// The model file could not be loaded.
    case model(String)
    /// An input or output index past the model's inputs or outputs.
    case invalidTensorIndex(index: Int, count: Int, role: String)
    /// The bytes given for an input do not match its size.
    case invalidDataSize(tensor: String, expected: Int, actual: Int)
    /// The data type given for an input does not match the tensor.
    case invalidDataType(tensor: String, expected: DataType, actual: DataType)
    /// A resize the model does not allow, or a shape with negative or overflowing extents.
    case invalidShape(tensor: String, reason: String)
    /// `invoke()` or a tensor read before `allocateTensors()` succeeded.
    case tensorsNotAllocated
    /// An operator this runtime has no kernel for (or not for these types).
    case unsupportedOperator(node: Int, op: String, reason: String)
    /// A node's options, types or shapes are inconsistent.
    case invalidNode(node: Int, op: String, reason: String)
    /// A kernel failed at run time on data-dependent input (e.g. an index out of range).
    case invokeFailed(node: Int, op: String, reason: String)
    /// The arena or a tensor would exceed the configured memory limit.
    case memoryLimitExceeded(requested: Int, limit: Int)
    /// No signature with this key, or no input/output with this name in it.
    case signatureNotFound(String)
    /// The invocation was stopped through ``Interpreter/cancellation``.
    case cancelled
    /// The invocation ran past ``Interpreter/Options/timeLimit``.
    case timeLimitExceeded(limit: Duration)

    public var description: String {
        switch self {
        case .model(let m): return "cannot load model: \(m)"
        case .invalidTensorIndex(let i, let c, let role): return "\(role) index \(i) out of range: the model has \(c) \(role)s"
        case .invalidDataSize(let t, let e, let a): return "tensor '\(t)' needs \(e) bytes, got \(a)"
        case .invalidDataType(let t, let e, let a): return "tensor '\(t)' has type \(e), got \(a)"
        case .invalidShape(let t, let r): return "tensor '\(t)': \(r)"
        case .tensorsNotAllocated: return "tensors are not allocated: call allocateTensors() first"
        case .unsupportedOperator(let n, let op, let r): return "node \(n) (\(op)) is not supported: \(r)"
        case .invalidNode(let n, let op, let r): return "node \(n) (\(op)): \(r)"
        case .invokeFailed(let n, let op, let r): return "node \(n) (\(op)) failed: \(r)"
        case .memoryLimitExceeded(let r, let l): return "needs \(r) bytes of tensor memory, over the limit of \(l)"
        case .signatureNotFound(let k): return "no signature entry '\(k)'"
        case .cancelled: return "the invocation was cancelled"
        case .timeLimitExceeded(let l): return "the invocation ran longer than its time limit of \(l)"
        }
    }
}
