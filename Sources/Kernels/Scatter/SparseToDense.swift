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
            let offset = try flatOffset(row: n, of: indices, depth: depth, shape: outputShape, strides: strides)
            output[offset] = scalarValue ? values[0] : values[n]
        }
    }
}
