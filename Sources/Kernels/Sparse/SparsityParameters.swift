/// TFLite's sparse-tensor description (`SparsityParameters` in the schema), as plain values the
/// runtime fills from the model.
public struct SparsityParameters: Sendable, Equatable {
    /// How one traversal level is stored.
    public enum Dimension: Sendable, Equatable {
        /// Every index `0..<size` is present.
        case dense(size: Int)
        /// Compressed: for the parent position `p`, the present indices are
        /// `indices[segments[p]..<segments[p + 1]]`.
        case sparseCSR(segments: [Int], indices: [Int])
    }

    /// The order in which the levels are traversed: the original dimensions first (in some
    /// order), then the block dimensions (numbered from the dense rank up).
    public var traversalOrder: [Int]
    /// For each block dimension, the original dimension it subdivides.
    public var blockMap: [Int]
    /// One entry per traversal level.
    public var dimensions: [Dimension]

    /// Creates sparsity parameters.
    public init(traversalOrder: [Int], blockMap: [Int], dimensions: [Dimension]) {
        self.traversalOrder = traversalOrder
        self.blockMap = blockMap
        self.dimensions = dimensions
    }
}
