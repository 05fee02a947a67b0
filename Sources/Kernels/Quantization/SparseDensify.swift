/// One dimension of a sparse tensor's storage, as TFLite's `DimensionMetadata`.
public enum SparseDimension: Sendable, Equatable {
    /// Every index `0..<size` is stored.
    case dense(size: Int)
    /// Compressed sparse row: for each position of the enclosing levels, the stored indices of
    /// this level are `indices[segments[p] ..< segments[p + 1]]`.
    case compressed(segments: [Int], indices: [Int])
}

/// The layout of a sparse constant (TFLite's `SparsityParameters`): the order in which the
/// dense dimensions, then the block dimensions, are traversed, which dense dimension each block
/// dimension subdivides, and the format of every traversed dimension.
public struct SparsityLayout: Sendable, Equatable {
    /// The dense tensor's shape.
    public var denseShape: [Int]
    /// A permutation of `0..<(denseShape.count + blockMap.count)`.
    public var traversalOrder: [Int]
    /// For each block dimension, the dense dimension it subdivides.
    public var blockMap: [Int]
    /// One entry per traversed dimension, in traversal order.
    public var dimensions: [SparseDimension]

    /// Creates a layout; `densify` checks it against the data.
    public init(denseShape: [Int], traversalOrder: [Int], blockMap: [Int], dimensions: [SparseDimension]) {
        self.denseShape = denseShape
        self.traversalOrder = traversalOrder
        self.blockMap = blockMap
        self.dimensions = dimensions
    }
}

/// Why a sparse constant could not be expanded.
public enum DensifyError: Error, Equatable, CustomStringConvertible {
    /// The traversal order, block map or dimension list is inconsistent with the shape.
    case invalidLayout(String)
    /// A stored index or segment points outside its range.
    case indexOutOfRange(level: Int, index: Int)
    /// The number of stored values differs from what the layout addresses.
    case valueCountMismatch(expected: Int, actual: Int)

    /// What is wrong, for error messages.
    public var description: String {
        switch self {
        case .invalidLayout(let why): return "invalid sparsity parameters: \(why)"
        case .indexOutOfRange(let level, let index): return "sparse index \(index) out of range at traversal level \(level)"
        case .valueCountMismatch(let expected, let actual): return "sparse tensor addresses \(expected) values but stores \(actual)"
        }
    }
}

/// DENSIFY: expands a sparse constant into its dense form (zeros elsewhere), visiting the
/// stored values in traversal order as TFLite's `FormatConverter::SparseToDense` does. Every
/// segment, index and count is checked, so a malformed model gives an error rather than an
/// out-of-bounds access. Runs once at prepare for constant weights.
///
/// - Parameters:
///   - values: the stored (non-zero) values.
///   - output: `denseShape` elements, overwritten.
public func densify<T>(_ layout: SparsityLayout, values: UnsafeBufferPointer<T>, zero: T,
                       output: UnsafeMutableBufferPointer<T>) throws(DensifyError) {
    let rank = layout.denseShape.count
    let levels = layout.traversalOrder.count
    guard levels == rank + layout.blockMap.count, layout.dimensions.count == levels,
          Set(layout.traversalOrder) == Set(0..<levels)
    else { throw .invalidLayout("traversal order, block map and dimension metadata do not match rank \(rank)") }
    guard layout.blockMap.allSatisfy({ $0 >= 0 && $0 < rank }) else { throw .invalidLayout("block map names a missing dimension") }
    guard layout.denseShape.allSatisfy({ $0 >= 0 }) else { throw .invalidLayout("negative dimension") }
    let denseCount = layout.denseShape.reduce(1) { $0.multipliedReportingOverflow(by: $1).partialValue }
    guard output.count == denseCount else { throw .invalidLayout("output holds \(output.count) elements, shape needs \(denseCount)") }

    // Block sizes are the dense sizes of the block levels, in block-dimension order.
    var blockSize = [Int](repeating: 1, count: layout.blockMap.count)
    for (level, dimension) in layout.traversalOrder.enumerated() where dimension >= rank {
        guard case .dense(let size) = layout.dimensions[level], size > 0 else { throw .invalidLayout("block dimension must be dense") }
        blockSize[dimension - rank] = size
    }
    // Dense levels must span exactly their (blocked) dimension, so no loop runs longer than the
    // tensor is large.
    var blockedShape = layout.denseShape
    for (block, dimension) in layout.blockMap.enumerated() {
        guard blockedShape[dimension] % blockSize[block] == 0 else { throw .invalidLayout("block size does not divide dimension \(dimension)") }
        blockedShape[dimension] /= blockSize[block]
    }
    for (level, dimension) in layout.traversalOrder.enumerated() where dimension < rank {
        if case .dense(let size) = layout.dimensions[level], size != blockedShape[dimension] {
            throw .invalidLayout("dense size \(size) of level \(level) does not match dimension \(dimension)")
        }
    }
    var strides = [Int](repeating: 1, count: rank)
    for axis in stride(from: rank - 2, through: 0, by: -1) { strides[axis] = strides[axis + 1] * layout.denseShape[axis + 1] }

    output.update(repeating: zero)
    var indices = [Int](repeating: 0, count: levels)
    var next = 0

    func store() throws(DensifyError) {
        var original = [Int](repeating: 0, count: rank)
        for level in 0..<levels {
            let dimension = layout.traversalOrder[level]
            if dimension < rank { original[dimension] = indices[level] }
        }
        // Block levels refine the coordinate of the dimension they subdivide.
        for level in 0..<levels where layout.traversalOrder[level] >= rank {
            let block = layout.traversalOrder[level] - rank
            let dimension = layout.blockMap[block]
            original[dimension] = original[dimension] * blockSize[block] + indices[level]
        }
        var flat = 0
        for axis in 0..<rank {
            guard original[axis] >= 0, original[axis] < layout.denseShape[axis] else {
                throw .indexOutOfRange(level: levels - 1, index: original[axis])
            }
            flat += original[axis] * strides[axis]
        }
        guard next < values.count else { throw .valueCountMismatch(expected: next + 1, actual: values.count) }
        output[flat] = values[next]
        next += 1
    }

    func visit(level: Int, parent: Int) throws(DensifyError) {
        if level == levels {
            try store()
            return
        }
        switch layout.dimensions[level] {
        case .dense(let size):
            for i in 0..<size {
                indices[level] = i
                try visit(level: level + 1, parent: parent * size + i)
            }
        case .compressed(let segments, let stored):
            guard parent + 1 < segments.count else { throw .indexOutOfRange(level: level, index: parent) }
            let (start, end) = (segments[parent], segments[parent + 1])
            guard start >= 0, start <= end, end <= stored.count else { throw .indexOutOfRange(level: level, index: end) }
            for i in start..<end {
                indices[level] = stored[i]
                try visit(level: level + 1, parent: i)
            }
        }
    }

    try visit(level: 0, parent: 0)
    guard next == values.count else { throw .valueCountMismatch(expected: next, actual: values.count) }
}
