// The AVX-512 int8 micro-kernel, compiled with -DTFLITE_AVX512: 12 rows x 16 channels in
// SIMD16<Float> accumulators (12 of the 32 zmm registers), like the float GEMM's tile.
#if TFLITE_AVX512
extension Int8GEMM {
    /// The element type of packed weights: int8, converted to float as loaded.
    typealias Weight = Int8
    /// Rows per micro-kernel tile.
    static let rowTile = 12

    /// One tile over at most `exactFloatProductCount` depth steps: accumulators start at
    /// `exactFloatAccumulatorBias`, so their bit patterns give the exact int32 sums, which are
    /// stored to `sums` (`[rowTile][16]`) or added to it when `accumulate`. Missing rows alias
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
        let a6 = rowCount > 6 ? a + 6 * lda : a
        let a7 = rowCount > 7 ? a + 7 * lda : a
        let a8 = rowCount > 8 ? a + 8 * lda : a
        let a9 = rowCount > 9 ? a + 9 * lda : a
        let a10 = rowCount > 10 ? a + 10 * lda : a
        let a11 = rowCount > 11 ? a + 11 * lda : a
        let start = FloatLanes(repeating: exactFloatAccumulatorBias)
        var (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11) = (start, start, start, start, start, start,
                                                                   start, start, start, start, start, start)
        let raw = UnsafeRawPointer(panel)
        for k in 0..<depth {
            let b = loadInt8AsFloat(raw + k * 16)
            c0.addProduct(FloatLanes(repeating: a0[k]), b)
            c1.addProduct(FloatLanes(repeating: a1[k]), b)
            c2.addProduct(FloatLanes(repeating: a2[k]), b)
            c3.addProduct(FloatLanes(repeating: a3[k]), b)
            c4.addProduct(FloatLanes(repeating: a4[k]), b)
            c5.addProduct(FloatLanes(repeating: a5[k]), b)
            c6.addProduct(FloatLanes(repeating: a6[k]), b)
            c7.addProduct(FloatLanes(repeating: a7[k]), b)
            c8.addProduct(FloatLanes(repeating: a8[k]), b)
            c9.addProduct(FloatLanes(repeating: a9[k]), b)
            c10.addProduct(FloatLanes(repeating: a10[k]), b)
            c11.addProduct(FloatLanes(repeating: a11[k]), b)
        }
        @inline(__always) func put(_ c: FloatLanes, _ row: Int) {
            var s = exactSums(c)
            if accumulate { s &+= sums.loadUnaligned(fromByteOffset: row * 64, as: Int32Lanes.self) }
            sums.storeBytes(of: s, toByteOffset: row * 64, as: Int32Lanes.self)
        }
        put(c0, 0); put(c1, 1); put(c2, 2); put(c3, 3); put(c4, 4); put(c5, 5)
        put(c6, 6); put(c7, 7); put(c8, 8); put(c9, 9); put(c10, 10); put(c11, 11)
    }
}
#endif
