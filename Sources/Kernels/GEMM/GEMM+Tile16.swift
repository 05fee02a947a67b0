// The AVX-512 micro-kernel, compiled with -DTFLITE_AVX512: 12 x 16 in SIMD16<Float>
// accumulators, 12 of the 32 zmm registers (see GEMM).
#if TFLITE_AVX512
extension GEMM {
    /// The accumulator vector: 16 floats, one zmm register.
    public typealias Vector = SIMD16<Float>
    /// Rows of `A` per micro-kernel tile.
    public static let rowTile = 12

    /// One `rowCount x columnCount` tile (at most 12 x 16) over one depth block. Accumulators
    /// start from `bias`, or from the partial sums already in `c` when `accumulate`; the clamp
    /// is applied only with the last block. Missing rows alias row 0 so the loop body stays
    /// branch-free; their results are discarded.
    @inline(__always)
    static func tile(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                     panel: UnsafePointer<Float>, bias: Vector, accumulate: Bool,
                     activation: ActivationRange<Float>?,
                     c: UnsafeMutablePointer<Float>, ldc: Int, columnCount: Int) {
        var start = (bias, bias, bias, bias, bias, bias, bias, bias, bias, bias, bias, bias)
        if accumulate {
            withUnsafeMutableBytes(of: &start) { bytes in
                for i in 0..<rowCount {
                    var v = Vector(repeating: 0)
                    for j in 0..<columnCount { v[j] = c[i * ldc + j] }
                    bytes.storeBytes(of: v, toByteOffset: i * 64, as: Vector.self)
                }
            }
        }
        let a0 = a
        let a1 = rowCount > 1 ? a + 1 * lda : a
        let a2 = rowCount > 2 ? a + 2 * lda : a
        let a3 = rowCount > 3 ? a + 3 * lda : a
        let a4 = rowCount > 4 ? a + 4 * lda : a
        let a5 = rowCount > 5 ? a + 5 * lda : a
        let a6 = rowCount > 6 ? a + 6 * lda : a
        let a7 = rowCount > 7 ? a + 7 * lda : a
        let a8 = rowCount > 8 ? a + 8 * lda : a
        let a9 = rowCount > 9 ? a + 9 * lda : a
        let a10 = rowCount > 10 ? a + 10 * lda : a
        let a11 = rowCount > 11 ? a + 11 * lda : a
        var (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11) = start
        let raw = UnsafeRawPointer(panel)
        for k in 0..<depth {
            let b = raw.loadUnaligned(fromByteOffset: k * 64, as: Vector.self)
            c0 = c0 + SIMD16<Float>(repeating: a0[k]) * b
            c1 = c1 + SIMD16<Float>(repeating: a1[k]) * b
            c2 = c2 + SIMD16<Float>(repeating: a2[k]) * b
            c3 = c3 + SIMD16<Float>(repeating: a3[k]) * b
            c4 = c4 + SIMD16<Float>(repeating: a4[k]) * b
            c5 = c5 + SIMD16<Float>(repeating: a5[k]) * b
            c6 = c6 + SIMD16<Float>(repeating: a6[k]) * b
            c7 = c7 + SIMD16<Float>(repeating: a7[k]) * b
            c8 = c8 + SIMD16<Float>(repeating: a8[k]) * b
            c9 = c9 + SIMD16<Float>(repeating: a9[k]) * b
            c10 = c10 + SIMD16<Float>(repeating: a10[k]) * b
            c11 = c11 + SIMD16<Float>(repeating: a11[k]) * b
        }
        let results = (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11)
        withUnsafeBytes(of: results) { tileBytes in
            for i in 0..<rowCount {
                var v = tileBytes.load(fromByteOffset: i * 64, as: Vector.self)
                if let activation { v = clampLanes16(v, activation.min, activation.max) }
                let out = c + i * ldc
                if columnCount == panelWidth {
                    UnsafeMutableRawPointer(out).storeBytes(of: v, as: Vector.self)
                } else {
                    for j in 0..<columnCount { out[j] = v[j] }
                }
            }
        }
    }
}

/// Lane-wise clamp of a `SIMD16<Float>` (see `clampLanes` for why it is a plain lane loop).
@inline(__always)
private func clampLanes16(_ v: SIMD16<Float>, _ lo: Float, _ hi: Float) -> SIMD16<Float> {
    var r = v
    for i in 0..<16 { r[i] = Swift.min(Swift.max(r[i], lo), hi) }
    return r
}
#endif
