/// Float BATCH_MATMUL: `output[..., i, j] = sum_k lhs'[..., i, k] * rhs'[..., k, j]`, where `lhs'`
/// and `rhs'` are the operands, transposed in their last two dimensions when `adjointLHS` /
/// `adjointRHS` is set, and the batch dimensions (all but the last two) broadcast NumPy-style.
public enum BatchMatMul {
    /// The output shape for the given operand shapes (each of rank >= 2), or nil when the inner
    /// dimensions disagree or the batch dimensions do not broadcast.
    public static func outputShape(lhsShape: [Int], rhsShape: [Int], adjointLHS: Bool, adjointRHS: Bool) -> [Int]? {
        guard lhsShape.count >= 2, rhsShape.count >= 2 else { return nil }
        let l = lhsShape.count, r = rhsShape.count
        let m = adjointLHS ? lhsShape[l - 1] : lhsShape[l - 2]
        let kl = adjointLHS ? lhsShape[l - 2] : lhsShape[l - 1]
        let kr = adjointRHS ? rhsShape[r - 1] : rhsShape[r - 2]
        let n = adjointRHS ? rhsShape[r - 2] : rhsShape[r - 1]
        guard kl == kr, let batch = Shape.broadcast(Array(lhsShape.dropLast(2)), Array(rhsShape.dropLast(2))) else { return nil }
        return batch + [m, n]
    }

    /// The reference product. `outputShape` must be ``outputShape(lhsShape:rhsShape:adjointLHS:adjointRHS:)``.
    public static func reference(lhs: UnsafePointer<Float>, lhsShape: [Int], adjointLHS: Bool,
                                 rhs: UnsafePointer<Float>, rhsShape: [Int], adjointRHS: Bool,
                                 output: UnsafeMutablePointer<Float>, outputShape: [Int]) {
        let lCols = lhsShape[lhsShape.count - 1], rCols = rhsShape[rhsShape.count - 1]
        let m = outputShape[outputShape.count - 2], n = outputShape[outputShape.count - 1]
        let depth = adjointLHS ? lhsShape[lhsShape.count - 2] : lCols
        forEachMatrix(lhs: lhs, lhsShape: lhsShape, rhs: rhs, rhsShape: rhsShape, output: output, outputShape: outputShape) { a, b, c in
            for i in 0..<m {
                for j in 0..<n {
                    var sum: Float = 0
                    for k in 0..<depth {
                        let x = adjointLHS ? a[k * lCols + i] : a[i * lCols + k]
                        let y = adjointRHS ? b[j * rCols + k] : b[k * rCols + j]
                        sum += x * y
                    }
                    c[i * n + j] = sum
                }
            }
        }
    }

    /// The product for a right operand that is not transposed, written as row updates: each
    /// output row accumulates `lhs'[i, k] * rhs[k, :]` over `k`, a contiguous multiply-add the
    /// compiler vectorises. Every output element still sums over `k` in ascending order from
    /// 0, so the results equal ``reference(lhs:lhsShape:adjointLHS:rhs:rhsShape:adjointRHS:output:outputShape:)``.
    public static func rowUpdates(lhs: UnsafePointer<Float>, lhsShape: [Int], adjointLHS: Bool,
                                  rhs: UnsafePointer<Float>, rhsShape: [Int],
                                  output: UnsafeMutablePointer<Float>, outputShape: [Int]) {
        let lCols = lhsShape[lhsShape.count - 1]
        let m = outputShape[outputShape.count - 2], n = outputShape[outputShape.count - 1]
        let depth = adjointLHS ? lhsShape[lhsShape.count - 2] : lCols
        forEachMatrix(lhs: lhs, lhsShape: lhsShape, rhs: rhs, rhsShape: rhsShape, output: output, outputShape: outputShape) { a, b, c in
            for i in 0..<m {
                let row = c + i * n
                row.update(repeating: 0, count: n)
                for k in 0..<depth {
                    let x = adjointLHS ? a[k * lCols + i] : a[i * lCols + k]
                    let bRow = b + k * n
                    for j in 0..<n { row[j] += x * bRow[j] }
                }
            }
        }
    }

    /// Calls `body` with each output matrix and the operand matrices it is computed from, the
    /// batch dimensions broadcast NumPy-style.
    @inline(__always)
    static func forEachMatrix(lhs: UnsafePointer<Float>, lhsShape: [Int], rhs: UnsafePointer<Float>, rhsShape: [Int],
                              output: UnsafeMutablePointer<Float>, outputShape: [Int],
                              _ body: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafeMutablePointer<Float>) -> Void) {
        let rank = outputShape.count
        let l = lhsShape.count, r = rhsShape.count
        let lMatrix = lhsShape[l - 2] * lhsShape[l - 1], rMatrix = rhsShape[r - 2] * rhsShape[r - 1]
        let outMatrix = outputShape[rank - 2] * outputShape[rank - 1]
        let batchShape = Array(outputShape.dropLast(2))
        let lBatch = Shape.extended(Array(lhsShape.dropLast(2)), toRank: batchShape.count)
        let rBatch = Shape.extended(Array(rhsShape.dropLast(2)), toRank: batchShape.count)
        let lStrides = Shape.strides(lBatch), rStrides = Shape.strides(rBatch)
        let batches = Shape.elementCount(batchShape)
        withUnsafeTemporaryAllocation(of: Int.self, capacity: max(batchShape.count, 1)) { index in
            index.initialize(repeating: 0)
            for batch in 0..<batches {
                // Map the output batch index to each operand's, repeating broadcast dimensions.
                var lOffset = 0, rOffset = 0
                for d in 0..<batchShape.count {
                    if lBatch[d] != 1 { lOffset += index[d] * lStrides[d] }
                    if rBatch[d] != 1 { rOffset += index[d] * rStrides[d] }
                }
                body(lhs + lOffset * lMatrix, rhs + rOffset * rMatrix, output + batch * outMatrix)
                stepOdometer(index.baseAddress!, extents: batchShape, lastAxis: batchShape.count - 1)
            }
        }
    }
}
