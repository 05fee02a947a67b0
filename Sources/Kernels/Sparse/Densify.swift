/// DENSIFY: expands a sparse constant into its dense form (TFLite's `FormatConverter`). The
/// metadata comes from the model file, so every index is checked; bad metadata throws.
public enum Densify {
    /// Writes the dense tensor of shape `denseShape` (zeros where nothing is stored) from the
    /// `valueCount` stored values at `values`.
    public static func apply(values: UnsafeRawPointer, valueCount: Int, elementSize: Int, denseShape: [Int],
                             sparsity: SparsityParameters, output: UnsafeMutableRawPointer) throws(KernelError) {
        let rank = denseShape.count, blocks = sparsity.blockMap.count
        let levels = sparsity.traversalOrder.count
        guard levels == rank + blocks, sparsity.dimensions.count == levels else {
            throw .invalidSparsity("\(levels) traversal levels and \(sparsity.dimensions.count) dimension entries for rank \(rank) with \(blocks) block dimensions")
        }
        guard Array(sparsity.traversalOrder[..<rank]).sorted() == Array(0..<rank),
              Array(sparsity.traversalOrder[rank...]).sorted() == Array(rank..<levels) else {
            throw .invalidSparsity("traversal order \(sparsity.traversalOrder) must list the \(rank) dimensions, then the block dimensions")
        }
        // Extent of every level: block sizes come from the block levels' dense sizes.
        var blockSize = [Int](repeating: 1, count: blocks)
        var blocked = denseShape
        for b in 0..<blocks {
            let dim = sparsity.blockMap[b]
            guard dim >= 0 && dim < rank, case .dense(let size) = sparsity.dimensions[rank + b], size > 0,
                  denseShape[dim] % size == 0 else {
                throw .invalidSparsity("block \(b) does not evenly divide a dimension with a dense block size")
            }
            blockSize[b] = size
            blocked[dim] /= size
        }
        var extent = [Int](repeating: 0, count: levels)
        for level in 0..<levels {
            let t = sparsity.traversalOrder[level]
            extent[level] = t < rank ? blocked[t] : blockSize[t - rank]
            if case .dense(let size) = sparsity.dimensions[level], size != extent[level] {
                throw .invalidSparsity("level \(level) is dense with size \(size), expected \(extent[level])")
            }
        }
        output.initializeMemory(as: UInt8.self, repeating: 0, count: Shape.elementCount(denseShape) * elementSize)
        // The dense offset is linear in the level indices: a block level steps through its
        // dimension at that dimension's stride times the sizes of the blocks applied after it,
        // and a dimension's own level steps over all of its blocks. Computing it on the way down
        // spares every stored value a walk over the dimensions (and an array).
        var dimensionStride = Shape.strides(denseShape)
        var levelStride = [Int](repeating: 0, count: levels)
        for level in (rank..<levels).reversed() {
            let b = sparsity.traversalOrder[level] - rank, dim = sparsity.blockMap[b]
            levelStride[level] = dimensionStride[dim]
            dimensionStride[dim] *= blockSize[b]
        }
        for level in 0..<rank { levelStride[level] = dimensionStride[sparsity.traversalOrder[level]] }
        var consumed = 0

        func place(at offset: Int) throws(KernelError) {
            guard consumed < valueCount else { throw .invalidSparsity("more positions than the \(valueCount) stored values") }
            let source = values + consumed * elementSize, destination = output + offset * elementSize
            switch elementSize {
            case 4: destination.storeBytes(of: source.loadUnaligned(as: UInt32.self), as: UInt32.self)
            case 2: destination.storeBytes(of: source.loadUnaligned(as: UInt16.self), as: UInt16.self)
            case 1: destination.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
            default: destination.copyMemory(from: source, byteCount: elementSize)
            }
            consumed += 1
        }

        func visit(level: Int, parent: Int, offset: Int) throws(KernelError) {
            if level == levels { try place(at: offset); return }
            let step = levelStride[level]
            switch sparsity.dimensions[level] {
            case .dense(let size):
                for i in 0..<size {
                    try visit(level: level + 1, parent: parent * size + i, offset: offset + i * step)
                }
            case .sparseCSR(let segments, let indices):
                guard parent + 1 < segments.count else { throw .invalidSparsity("level \(level) has no segment for position \(parent)") }
                let start = segments[parent], end = segments[parent + 1]
                guard start >= 0, start <= end, end <= indices.count else {
                    throw .invalidSparsity("level \(level) segment \(start)..<\(end) is outside its \(indices.count) indices")
                }
                for i in start..<end {
                    let idx = indices[i]
                    guard idx >= 0 && idx < extent[level] else {
                        throw .invalidSparsity("level \(level) index \(idx) is outside 0..<\(extent[level])")
                    }
                    try visit(level: level + 1, parent: i, offset: offset + idx * step)
                }
            }
        }
        try visit(level: 0, parent: 0, offset: 0)
    }
}
