/// SPARSE_TO_DENSE: a tensor of `defaultValue` with `values` written at the coordinates
/// `indices` lists (one row of `depth` coordinates per value, or one value for all). Later
/// rows overwrite earlier ones at a repeated coordinate, as in LiteRT.
public enum SparseToDense {
    /// - Throws: `KernelError.indexOutOfRange` for a coordinate outside its dimension (LiteRT
    ///   does not check); the output is then partly written.
    public static func run<T, Index: FixedWidthInteger>(
        indices: UnsafePointer<Index>, count: Int, depth: Int, values: UnsafePointer<T>, scalarValue: Bool,
        defaultValue: T, outputShape: [Int], output: UnsafeMutablePointer<T>) throws(KernelError) {
        output.update(repeating: defaultValue, count: Shape.elementCount(outputShape))
        let strides = Shape.strides(outputShape)
        for n in 0..<count {
            var offset = 0
            for d in 0..<depth {
                let position = n * depth + d
                let i = Int(truncatingIfNeeded: indices[position])
                guard i >= 0, i < outputShape[d] else { throw .indexOutOfRange(index: i, bound: outputShape[d], position: position) }
                offset += i * strides[d]
            }
            output[offset] = scalarValue ? values[0] : values[n]
        }
    }
}
