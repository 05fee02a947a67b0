// The portable int8 micro-kernel: 6 rows x 8 channels in SIMD8<Float> accumulators, which fit
// the 16 registers of SSE2 (two xmm per vector) and AVX2, like the float GEMM's portable tile.
#if !TFLITE_AVX512
extension Int8GEMM {
    /// The element type of packed weights: float, converted once at prepare.
    typealias Weight = Float
    /// Rows per micro-kernel tile.
    static let rowTile = 6

    /// One tile over at most `exactFloatProductCount` depth steps: accumulators start at
    /// `exactFloatAccumulatorBias`, so their bit patterns give the exact int32 sums, which are
    /// stored to `sums` (`[rowTile][8]`) or added to it when `accumulate`. Missing rows alias
    /// row 0 so the loop body stays branch-free.
    @inline(__always)
    static func tile(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                     panel: UnsafePointer<Weight>, sums: UnsafeMutableRawPointer, accumulate: Bool) {
        let a0 = a
        let a1 = rowCount > 1 ? a + 1 * lda : a
        let a2 = rowCount > 2 ? a + 2 * lda : a
        let a3 = rowCount > 3 ? a + 3 * lda : a
        let a4 = rowCount > 4 ? a + 4 * lda : a
        let a5 = rowCount > 5 ? a + 5 * lda : a
        let start = FloatLanes(repeating: exactFloatAccumulatorBias)
        var (c0, c1, c2, c3, c4, c5) = (start, start, start, start, start, start)
        let raw = UnsafeRawPointer(panel)
        for k in 0..<depth {
            let b = raw.loadUnaligned(fromByteOffset: k * 32, as: FloatLanes.self)
            c0 = c0 + FloatLanes(repeating: a0[k]) * b
            c1 = c1 + FloatLanes(repeating: a1[k]) * b
            c2 = c2 + FloatLanes(repeating: a2[k]) * b
            c3 = c3 + FloatLanes(repeating: a3[k]) * b
            c4 = c4 + FloatLanes(repeating: a4[k]) * b
            c5 = c5 + FloatLanes(repeating: a5[k]) * b
        }
        @inline(__always) func put(_ c: FloatLanes, _ row: Int) {
            var s = exactSums(c)
            if accumulate { s &+= sums.loadUnaligned(fromByteOffset: row * 32, as: Int32Lanes.self) }
            sums.storeBytes(of: s, toByteOffset: row * 32, as: Int32Lanes.self)
        }
        put(c0, 0); put(c1, 1); put(c2, 2); put(c3, 3); put(c4, 4); put(c5, 5)
    }
}
#endif
