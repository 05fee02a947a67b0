#if TFLITE_ISA_MODULE
import Kernels
#endif
// The baseline and AVX2 micro-kernel: 6 x 8 in SIMD8<Float> accumulators (see GEMM).
#if !TFLITE_AVX512
extension GEMM {
    /// The accumulator vector: 8 floats, two xmm registers on SSE2, one ymm on AVX2.
    typealias Vector = SIMD8<Float>
    /// Rows of `A` per micro-kernel tile.
    static let rowTile = 6
    /// Rows per call of the micro-kernels: one tile (they are inlined into the blocking loops).
    /// Output columns per micro-kernel tile: one panel.
    static let tileColumns = panelWidth
    static let rowsPerCall = rowTile

    /// Rows the tiles compute for a run of `count` rows, the repeated ones of a short last
    /// tile included.
    static func tiledRows(_ count: Int) -> Int { (count + rowTile - 1) / rowTile * rowTile }

    /// One `rowCount x columnCount` tile (at most 6 x 8) over one depth block. Accumulators
    /// start from `bias`, or from the partial sums already in `c` when `accumulate`; the clamp
    /// is applied only with the last block. Missing rows alias row 0 so the loop body stays
    /// branch-free; their results are discarded.
    ///
    /// The depth may come in `segments` pieces of `depth` steps each (a small-channel
    /// convolution's filter rows): piece `s` reads each row of `a` from `s * segmentStride`
    /// on, and the next `depth` steps of the panel.
    @inline(__always)
    static func tile(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                     segments: Int = 1, segmentStride: Int = 0,
                     panel: UnsafePointer<Float>, bias: Vector, accumulate: Bool,
                     activation: ActivationRange<Float>?, residual: GEMMResidual? = nil,
                     c: UnsafeMutablePointer<Float>, ldc: Int, columnCount: Int) {
        var start = (bias, bias, bias, bias, bias, bias)
        if accumulate { loadPartialSums(into: &start, rowCount: rowCount, c: c, ldc: ldc, columnCount: columnCount) }
        let a0 = a
        let a1 = rowCount > 1 ? a + 1 * lda : a
        let a2 = rowCount > 2 ? a + 2 * lda : a
        let a3 = rowCount > 3 ? a + 3 * lda : a
        let a4 = rowCount > 4 ? a + 4 * lda : a
        let a5 = rowCount > 5 ? a + 5 * lda : a
        var (c0, c1, c2, c3, c4, c5) = start
        var raw = UnsafeRawPointer(panel)
        var offset = 0
        for _ in 0..<segments {
            for k in 0..<depth {
                let b = raw.loadUnaligned(fromByteOffset: k &* 32, as: Vector.self)
                let i = offset &+ k
                multiplyAdd(&c0, SIMD8<Float>(repeating: a0[i]), b)
                multiplyAdd(&c1, SIMD8<Float>(repeating: a1[i]), b)
                multiplyAdd(&c2, SIMD8<Float>(repeating: a2[i]), b)
                multiplyAdd(&c3, SIMD8<Float>(repeating: a3[i]), b)
                multiplyAdd(&c4, SIMD8<Float>(repeating: a4[i]), b)
                multiplyAdd(&c5, SIMD8<Float>(repeating: a5[i]), b)
            }
            raw += depth &* 32
            offset &+= segmentStride
        }
        storeTile((c0, c1, c2, c3, c4, c5), rowCount: rowCount, activation: activation, residual: residual,
                  c: c, ldc: ldc, columnCount: columnCount)
    }

    /// One panel per tile: the portable tile has no registers to spare for a second panel's
    /// accumulators.
    static func groupWidth(panelsLeft: Int) -> Int { 1 }

    /// The tile of `group`'s one panel.
    @inline(__always)
    static func tileGroup(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                          segments: Int = 1, segmentStride: Int = 0, group: PanelGroup,
                          accumulate: Bool, activation: ActivationRange<Float>?, residual: GEMMResidual? = nil,
                          c: UnsafeMutablePointer<Float>, ldc: Int) {
        tile(a: a, lda: lda, rowCount: rowCount, depth: depth, segments: segments, segmentStride: segmentStride,
             panel: group.panel0, bias: group.bias0, accumulate: accumulate, activation: activation, residual: residual,
             c: c, ldc: ldc, columnCount: group.lastColumns)
    }
}
#endif
