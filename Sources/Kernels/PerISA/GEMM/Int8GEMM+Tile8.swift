#if TFLITE_ISA_MODULE
import Kernels
#endif
// The baseline and AVX2 int8 micro-kernel: 6 rows x 8 channels in SIMD8<Int32> accumulators,
// which fit the 16 registers of SSE2 (two xmm per vector) and AVX2, like the float GEMM's tile.
#if !TFLITE_AVX512
extension Int8GEMM {
    /// Rows per micro-kernel tile.
    static let rowTile = 6
    /// Copies of each int16 pair in a gathered row (see ``tileSums(a:lda:rowCount:pairs:panel:panelStride:blocks:sums:)``):
    /// one with AVX2, whose broadcast is a load (`vpbroadcastd`).
    #if TFLITE_AVX2
    static let pairCopies = 1
    #else
    static let pairCopies = 4
    #endif
    /// Rows per gathered tile.
    static let gatheredTileRows = rowTile
    /// Blocks of channels per call of ``tileSums(a:lda:rowCount:pairs:panel:panelStride:blocks:sums:)``.
    static let tileBlocks = 1

    /// The int32 sums of `rowCount` (at most ``rowTile``) rows of `a` (`lda` int16 values
    /// apart, `2 * pairs` long) with one block of packed weights, stored to `sums`
    /// (`[rowTile][8]`). Missing rows alias row 0 so the loop body stays branch-free; their
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
        let (a0, a1, a2, a3, a4, a5) = tileRows(a, lda: lda, rowCount: rowCount)
        var (c0, c1, c2, c3, c4, c5) = (Int32Lanes(), Int32Lanes(), Int32Lanes(), Int32Lanes(), Int32Lanes(), Int32Lanes())
        var raw = UnsafeRawPointer(panel)
        var offset = 0
        for _ in 0..<segments {
            for k in 0..<pairs {
                let b = raw.loadUnaligned(fromByteOffset: k &* 32, as: Int16PairLanes.self)
                let at = offset &+ 4 &* k
                c0 &+= pairProducts(broadcastPair(a0, byteOffset: at), b)
                c1 &+= pairProducts(broadcastPair(a1, byteOffset: at), b)
                c2 &+= pairProducts(broadcastPair(a2, byteOffset: at), b)
                c3 &+= pairProducts(broadcastPair(a3, byteOffset: at), b)
                c4 &+= pairProducts(broadcastPair(a4, byteOffset: at), b)
                c5 &+= pairProducts(broadcastPair(a5, byteOffset: at), b)
            }
            raw += pairs &* 32
            offset &+= 2 &* segmentStride
        }
        @inline(__always) func put(_ c: Int32Lanes, _ row: Int) {
            sums.storeBytes(of: c, toByteOffset: row * 32, as: Int32Lanes.self)
        }
        put(c0, 0); put(c1, 1); put(c2, 2); put(c3, 3); put(c4, 4); put(c5, 5)
    }

    /// ``blockSums(a:lda:rowCount:pairs:segments:segmentStride:panel:sums:)`` for rows gathered
    /// with each pair stored ``pairCopies`` times (`splatPairs`): SSE2 has no broadcast load,
    /// so `blockSums` spends a shuffle on every pair of every row for every block of channels,
    /// a fifth of its vector instructions; a gathered row is splatted once and then read by
    /// every block with plain loads. `lda` counts int16 values of the splatted rows.
    @inline(never)
    /// One block per call (`blocks` is 1, `panelStride` unused): the tile has no registers to
    /// spare for a second.
    static func tileSums(a: UnsafePointer<Int16>, lda: Int, rowCount: Int, pairs: Int,
                         panel: UnsafePointer<Int16>, panelStride: Int, blocks: Int, sums: UnsafeMutableRawPointer) {
        #if TFLITE_AVX2
        // Rows are gathered once per pair: `blockSums` broadcasts each pair from memory.
        blockSums(a: a, lda: lda, rowCount: rowCount, pairs: pairs, panel: panel, sums: sums)
        #else
        let (a0, a1, a2, a3, a4, a5) = tileRows(a, lda: lda, rowCount: rowCount)
        var (c0, c1, c2, c3, c4, c5) = (Int32Lanes(), Int32Lanes(), Int32Lanes(), Int32Lanes(), Int32Lanes(), Int32Lanes())
        let raw = UnsafeRawPointer(panel)
        @inline(__always) func splat(_ row: UnsafeRawPointer, _ k: Int) -> Int16PairLanes {
            let v = row.loadUnaligned(fromByteOffset: k &* 16, as: SIMD8<Int16>.self)
            return Int16PairLanes(lowHalf: v, highHalf: v)
        }
        for k in 0..<pairs {
            let b = raw.loadUnaligned(fromByteOffset: k &* 32, as: Int16PairLanes.self)
            c0 &+= pairProducts(splat(a0, k), b)
            c1 &+= pairProducts(splat(a1, k), b)
            c2 &+= pairProducts(splat(a2, k), b)
            c3 &+= pairProducts(splat(a3, k), b)
            c4 &+= pairProducts(splat(a4, k), b)
            c5 &+= pairProducts(splat(a5, k), b)
        }
        @inline(__always) func put(_ c: Int32Lanes, _ row: Int) {
            sums.storeBytes(of: c, toByteOffset: row * 32, as: Int32Lanes.self)
        }
        put(c0, 0); put(c1, 1); put(c2, 2); put(c3, 3); put(c4, 4); put(c5, 5)
        #endif
    }

    /// The tile's six row pointers (see ``tileRow(_:_:lda:rowCount:)``).
    @inline(__always)
    private static func tileRows(_ a: UnsafePointer<Int16>, lda: Int, rowCount: Int)
        -> (UnsafeRawPointer, UnsafeRawPointer, UnsafeRawPointer, UnsafeRawPointer, UnsafeRawPointer, UnsafeRawPointer) {
        (tileRow(a, 0, lda: lda, rowCount: rowCount), tileRow(a, 1, lda: lda, rowCount: rowCount),
         tileRow(a, 2, lda: lda, rowCount: rowCount), tileRow(a, 3, lda: lda, rowCount: rowCount),
         tileRow(a, 4, lda: lda, rowCount: rowCount), tileRow(a, 5, lda: lda, rowCount: rowCount))
    }
}
#endif
