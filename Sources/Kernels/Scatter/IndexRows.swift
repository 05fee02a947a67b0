/// The flat element offset named by row `n` of an index matrix (`depth` coordinates per row)
/// into a tensor of `shape` with `strides`, for the ops that write at listed coordinates.
/// - Throws: `KernelError.indexOutOfRange` for a coordinate outside its dimension.
@inline(__always)
func flatOffset<Index: FixedWidthInteger>(row n: Int, of indices: UnsafePointer<Index>, depth: Int,
                                          shape: [Int], strides: [Int]) throws(KernelError) -> Int {
    var offset = 0
    for d in 0..<depth {
        let position = n * depth + d
        let i = Int(truncatingIfNeeded: indices[position])
        guard i >= 0, i < shape[d] else { throw .indexOutOfRange(index: i, bound: shape[d], position: position) }
        offset += i * strides[d]
    }
    return offset
}
