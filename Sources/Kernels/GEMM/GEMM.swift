/// Single-precision matrix product `C[m][n] = act(A[m][k] * W[n][k]^T + bias[n])` against weights
/// packed by ``PackedGEMMWeights``, the engine behind the optimised CONV_2D and FULLY_CONNECTED.
///
/// The micro-kernel computes a tile of ``rowTile`` rows by ``panelWidth`` columns held in six
/// `SIMD8<Float>` accumulators. Six accumulators, one weight vector and one broadcast fit the
/// 16 registers of both SSE2 (two xmm per `SIMD8`) and AVX2, so the tile never spills in the
/// portable build; products are written `a + b * c`, which lowers to a multiply and an add
/// without FMA and fuses when the target has it.
public enum GEMM {
    /// Output columns per packed panel (one `SIMD8<Float>`).
    public static let panelWidth = 8
    /// Rows of `A` per micro-kernel tile.
    public static let rowTile = 6

    /// Computes rows `rows` and panels `panels` of the product.
    ///
    /// - Parameters:
    ///   - a: the left matrix; row `i` starts at `a + i * lda` and holds `weights.depth` floats.
    ///   - rows: the rows of `A` (and `C`) to compute.
    ///   - weights: the packed right-hand matrix.
    ///   - panels: the panels (groups of ``panelWidth`` output columns) to compute.
    ///   - bias: `weights.outputCount` floats added to every row, or nil.
    ///   - activation: the clamp applied to every result.
    ///   - c: the output; row `i` starts at `c + i * ldc`.
    public static func multiply(a: UnsafePointer<Float>, lda: Int, rows: Range<Int>,
                                weights: PackedGEMMWeights, panels: Range<Int>,
                                bias: UnsafePointer<Float>?, activation: ActivationRange<Float>,
                                c: UnsafeMutablePointer<Float>, ldc: Int) {
        weights.panels.withUnsafeBufferPointer { packed in
            guard let base = packed.baseAddress else { return }
            let k = weights.depth
            // Depth is processed in blocks so a tile's slices of A (6 x depthBlock) and of the
            // panel (depthBlock x 8) stay in L1; later blocks accumulate onto the partial sums.
            var k0 = 0
            while k0 < k {
                let kLength = Swift.min(depthBlock, k - k0)
                let first = k0 == 0, last = k0 + kLength == k
                for p in panels {
                    let panel = base + (p * k + k0) * panelWidth
                    let col0 = p * panelWidth
                    let cols = Swift.min(panelWidth, weights.outputCount - col0)
                    var biasVector = SIMD8<Float>(repeating: 0)
                    if first, let bias { for j in 0..<cols { biasVector[j] = bias[col0 + j] } }
                    var r = rows.lowerBound
                    while r < rows.upperBound {
                        let mr = Swift.min(rowTile, rows.upperBound - r)
                        tile(a: a + r * lda + k0, lda: lda, rowCount: mr, depth: kLength, panel: panel,
                             bias: biasVector, accumulate: !first, activation: last ? activation : nil,
                             c: c + r * ldc + col0, ldc: ldc, columnCount: cols)
                        r += mr
                    }
                }
                k0 += kLength
            }
        }
    }

    /// Depth per block (see ``multiply(a:lda:rows:weights:panels:bias:activation:c:ldc:)``).
    static let depthBlock = 256

    /// One `rowCount x columnCount` tile (at most 6 x 8) over one depth block. Accumulators
    /// start from `bias`, or from the partial sums already in `c` when `accumulate`; the clamp
    /// is applied only with the last block. Missing rows alias row 0 so the loop body stays
    /// branch-free; their results are discarded.
    @inline(__always)
    static func tile(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                     panel: UnsafePointer<Float>, bias: SIMD8<Float>, accumulate: Bool,
                     activation: ActivationRange<Float>?,
                     c: UnsafeMutablePointer<Float>, ldc: Int, columnCount: Int) {
        var start = (bias, bias, bias, bias, bias, bias)
        if accumulate {
            withUnsafeMutableBytes(of: &start) { bytes in
                for i in 0..<rowCount {
                    var v = SIMD8<Float>(repeating: 0)
                    for j in 0..<columnCount { v[j] = c[i * ldc + j] }
                    bytes.storeBytes(of: v, toByteOffset: i * 32, as: SIMD8<Float>.self)
                }
            }
        }
        let a0 = a
        let a1 = rowCount > 1 ? a + lda : a
        let a2 = rowCount > 2 ? a + 2 * lda : a
        let a3 = rowCount > 3 ? a + 3 * lda : a
        let a4 = rowCount > 4 ? a + 4 * lda : a
        let a5 = rowCount > 5 ? a + 5 * lda : a
        var (c0, c1, c2, c3, c4, c5) = start
        let raw = UnsafeRawPointer(panel)
        for k in 0..<depth {
            let b = raw.loadUnaligned(fromByteOffset: k * 32, as: SIMD8<Float>.self)
            c0 = c0 + SIMD8(repeating: a0[k]) * b
            c1 = c1 + SIMD8(repeating: a1[k]) * b
            c2 = c2 + SIMD8(repeating: a2[k]) * b
            c3 = c3 + SIMD8(repeating: a3[k]) * b
            c4 = c4 + SIMD8(repeating: a4[k]) * b
            c5 = c5 + SIMD8(repeating: a5[k]) * b
        }
        let results = (c0, c1, c2, c3, c4, c5)
        withUnsafeBytes(of: results) { tileBytes in
            for i in 0..<rowCount {
                var v = tileBytes.load(fromByteOffset: i * 32, as: SIMD8<Float>.self)
                if let activation { v = clampLanes(v, activation.min, activation.max) }
                let out = c + i * ldc
                if columnCount == panelWidth {
                    UnsafeMutableRawPointer(out).storeBytes(of: v, as: SIMD8<Float>.self)
                } else {
                    for j in 0..<columnCount { out[j] = v[j] }
                }
            }
        }
    }
}
