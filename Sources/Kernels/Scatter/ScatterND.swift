/// SCATTER_ND: a zero tensor of a given shape with slices of `updates` added at the positions
/// `indices` names. Each index row of length `indexDepth` selects a slice of `sliceSize`
/// elements; repeated positions accumulate (integers wrap).
public enum ScatterND {
    /// Fills `output` (shape `outputShape`) from `updates` (`indexCount` slices).
    /// - Throws: `KernelError.indexOutOfRange` for a coordinate outside its dimension; the
    ///   output is then partly written.
    public static func run<T: WrappingAddable, Index: FixedWidthInteger>(
        indices: UnsafePointer<Index>, indexCount: Int, indexDepth: Int, updates: UnsafePointer<T>,
        outputShape: [Int], output: UnsafeMutablePointer<T>) throws(KernelError) {
        let total = Shape.elementCount(outputShape)
        output.update(repeating: .additiveZero, count: total)
        let sliceSize = Shape.product(outputShape, indexDepth..<outputShape.count)
        let strides = Shape.strides(outputShape)
        for n in 0..<indexCount {
            let offset = try flatOffset(row: n, of: indices, depth: indexDepth, shape: outputShape, strides: strides)
            let src = updates + n * sliceSize
            for j in 0..<sliceSize { output[offset + j] = output[offset + j].addingWrapped(src[j]) }
        }
    }
}
