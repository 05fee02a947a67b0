extension BatchMatMul.Quantized {
    /// Reference quantised BATCH_MATMUL for int8, as TFLite's reference `BatchMatMul` computes it:
    /// for each batch, `out[i][j] = rescale(sum_k (lhs[i][k] + lhsOffset) * (rhs[k][j] + rhsOffset))`.
    ///
    /// The right-hand side is addressed through `rhsRowStride` / `rhsColumnStride`, so a transposed
    /// (`adj_y`) operand needs no copy. Batch broadcasting is expressed by the batch strides (0 for
    /// a broadcast operand).
    ///
    /// - Parameters:
    ///   - params: `inputOffset` applies to `lhs`, `filterOffset` to `rhs`; a single multiplier.
    ///   - lhs: `rows x depth` per batch, row-major.
    ///   - rhs: `depth x columns` per batch, with element (k, j) at `k * rhsRowStride + j * rhsColumnStride`.
    public static func reference(
        _ params: QuantizedFullyConnectedParams,
        lhs: UnsafePointer<Int8>, lhsBatchStride: Int,
        rhs: UnsafePointer<Int8>, rhsBatchStride: Int, rhsRowStride: Int, rhsColumnStride: Int,
        batches: Int, rows: Int, depth: Int, columns: Int,
        output: UnsafeMutablePointer<Int8>
    ) {
        let multiplier = params.outputMultipliers[0]
        for b in 0..<batches {
            let l = lhs + b * lhsBatchStride
            let r = rhs + b * rhsBatchStride
            let o = output + b * rows * columns
            for i in 0..<rows {
                for j in 0..<columns {
                    var acc: Int32 = 0
                    for k in 0..<depth {
                        acc &+= (Int32(l[i * depth + k]) &+ params.inputOffset)
                            &* (Int32(r[k * rhsRowStride + j * rhsColumnStride]) &+ params.filterOffset)
                    }
                    acc = multiplier.apply(acc, rounding: params.rounding) &+ params.outputOffset
                    o[i * columns + j] = Int8(clampedQuantized: params.activation.clamp(acc))
                }
            }
        }
    }
}
