// The AVX-512 int8 micro-kernel, compiled with -DTFLITE_AVX512: 12 rows x 16 channels in
// SIMD16<Int32> accumulators (12 of the 32 zmm registers), like the float GEMM's tile. With
// VNNI each step is one `vpdpwssd` per row, its broadcast pair folded into the instruction.
#if TFLITE_AVX512
extension Int8GEMM {
    /// Rows per micro-kernel tile.
    static let rowTile = 12
    /// Copies of each int16 pair in a gathered row: one, since the broadcast of a pair is a
    /// load (`vpbroadcastd`, or folded into `vpdpwssd`).
    static let pairCopies = 1

    /// The sums of a gathered tile: ``blockSums(a:lda:rowCount:pairs:segments:segmentStride:panel:sums:)``.
    @inline(__always)
    static func tileSums(a: UnsafePointer<Int16>, lda: Int, rowCount: Int, pairs: Int,
                         panel: UnsafePointer<Int16>, sums: UnsafeMutableRawPointer) {
        blockSums(a: a, lda: lda, rowCount: rowCount, pairs: pairs, panel: panel, sums: sums)
    }

    /// The int32 sums of `rowCount` (at most ``rowTile``) rows of `a` (`lda` int16 values
    /// apart, `2 * pairs` long) with one block of packed weights, stored to `sums`
    /// (`[rowTile][16]`). Missing rows alias row 0 so the loop body stays branch-free; their
    /// sums are meaningless.
    ///
    /// The reduction may come in `segments` pieces of `pairs` pairs each (a small-channel
    /// convolution's filter rows): piece `s` reads each row of `a` from `s * segmentStride`
    /// int16 values on, and the next `pairs` pairs of the panel.
    ///
    /// Compiled out of line: inlined into a large caller, the lane shuffles of `pairProducts`
    /// stayed calls instead of becoming one pair-product instruction.
    @inline(never)
    static func blockSums(a: UnsafePointer<Int16>, lda: Int, rowCount: Int, pairs: Int,
                          segments: Int = 1, segmentStride: Int = 0,
                          panel: UnsafePointer<Int16>, sums: UnsafeMutableRawPointer) {
        let a0 = UnsafeRawPointer(a)
        let a1 = rowCount > 1 ? a0 + 2 * lda : a0
        let a2 = rowCount > 2 ? a0 + 4 * lda : a0
        let a3 = rowCount > 3 ? a0 + 6 * lda : a0
        let a4 = rowCount > 4 ? a0 + 8 * lda : a0
        let a5 = rowCount > 5 ? a0 + 10 * lda : a0
        let a6 = rowCount > 6 ? a0 + 12 * lda : a0
        let a7 = rowCount > 7 ? a0 + 14 * lda : a0
        let a8 = rowCount > 8 ? a0 + 16 * lda : a0
        let a9 = rowCount > 9 ? a0 + 18 * lda : a0
        let a10 = rowCount > 10 ? a0 + 20 * lda : a0
        let a11 = rowCount > 11 ? a0 + 22 * lda : a0
        let zero = Int32Lanes()
        var (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11) = (zero, zero, zero, zero, zero, zero,
                                                                   zero, zero, zero, zero, zero, zero)
        var raw = UnsafeRawPointer(panel)
        var offset = 0
        for _ in 0..<segments {
            for k in 0..<pairs {
                let b = raw.loadUnaligned(fromByteOffset: k &* 64, as: Int16PairLanes.self)
                let at = offset &+ 4 &* k
                c0 &+= pairProducts(broadcastPair(a0, byteOffset: at), b)
                c1 &+= pairProducts(broadcastPair(a1, byteOffset: at), b)
                c2 &+= pairProducts(broadcastPair(a2, byteOffset: at), b)
                c3 &+= pairProducts(broadcastPair(a3, byteOffset: at), b)
                c4 &+= pairProducts(broadcastPair(a4, byteOffset: at), b)
                c5 &+= pairProducts(broadcastPair(a5, byteOffset: at), b)
                c6 &+= pairProducts(broadcastPair(a6, byteOffset: at), b)
                c7 &+= pairProducts(broadcastPair(a7, byteOffset: at), b)
                c8 &+= pairProducts(broadcastPair(a8, byteOffset: at), b)
                c9 &+= pairProducts(broadcastPair(a9, byteOffset: at), b)
                c10 &+= pairProducts(broadcastPair(a10, byteOffset: at), b)
                c11 &+= pairProducts(broadcastPair(a11, byteOffset: at), b)
            }
            raw += pairs &* 64
            offset &+= 2 &* segmentStride
        }
        @inline(__always) func put(_ c: Int32Lanes, _ row: Int) {
            sums.storeBytes(of: c, toByteOffset: row * 64, as: Int32Lanes.self)
        }
        put(c0, 0); put(c1, 1); put(c2, 2); put(c3, 3); put(c4, 4); put(c5, 5)
        put(c6, 6); put(c7, 7); put(c8, 8); put(c9, 9); put(c10, 10); put(c11, 11)
    }
}
#endif
