/// A failure a kernel can only detect while it runs, because it depends on tensor *values*
/// (indices, sparse metadata) rather than shapes that prepare already proved.
public enum KernelError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An index read from a tensor lies outside `0..<bound`; `position` is its flat offset in
    /// the index tensor.
    case indexOutOfRange(index: Int, bound: Int, position: Int)
    /// Sparse-tensor metadata does not describe the dense shape it claims to.
    case invalidSparsity(String)
    /// A value read from a tensor (a position, a count) makes the operation impossible.
    case invalidValue(String)

    /// A one-line explanation naming the offending value.
    public var description: String {
        switch self {
        case let .indexOutOfRange(index, bound, position):
            return "index \(index) at position \(position) is outside 0..<\(bound)"
        case let .invalidSparsity(message):
            return "invalid sparsity metadata: \(message)"
        case let .invalidValue(message):
            return message
        }
    }
}
