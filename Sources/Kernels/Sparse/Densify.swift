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
        let strides = Shape.strides(denseShape)
        var index = [Int](repeating: 0, count: levels)
        var consumed = 0

        func place() throws(KernelError) {
            var original = [Int](repeating: 0, count: rank)
            for level in 0..<rank { original[sparsity.traversalOrder[level]] = index[level] }
            for level in rank..<levels {
                let b = sparsity.traversalOrder[level] - rank
                let dim = sparsity.blockMap[b]
                original[dim] = original[dim] * blockSize[b] + index[level]
            }
            guard consumed < valueCount else { throw .invalidSparsity("more positions than the \(valueCount) stored values") }
            var offset = 0
            for d in 0..<rank { offset += original[d] * strides[d] }
            (output + offset * elementSize).copyMemory(from: values + consumed * elementSize, byteCount: elementSize)
            consumed += 1
        }

        func visit(level: Int, parent: Int) throws(KernelError) {
            if level == levels { try place(); return }
            switch sparsity.dimensions[level] {
            case .dense(let size):
                for i in 0..<size {
                    index[level] = i
                    try visit(level: level + 1, parent: parent * size + i)
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
                    index[level] = idx
                    try visit(level: level + 1, parent: i)
                }
            }
        }
        try visit(level: 0, parent: 0)
    }
}
