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
    /// apart) with one block of packed weights, stored to `sums` (`[rowTile][8]`); the depth
    /// runs as ``forEachPanelPair(pairs:segments:segmentStride:panel:_:)`` says. Missing rows
    /// alias row 0 so the loop body stays branch-free; their sums are meaningless.
    ///
    /// Compiled out of line: inlined into a large caller, the lane shuffles of `pairProducts`
    /// stayed calls instead of becoming one pair-product instruction.
    @inline(never)
    static func blockSums(a: UnsafePointer<Int16>, lda: Int, rowCount: Int, pairs: Int,
                          segments: Int = 1, segmentStride: Int = 0,
                          panel: UnsafePointer<Int16>, sums: UnsafeMutableRawPointer) {
        let (a0, a1, a2, a3, a4, a5) = tileRows(a, lda: lda, rowCount: rowCount)
        var (c0, c1, c2, c3, c4, c5) = (Int32Lanes(), Int32Lanes(), Int32Lanes(), Int32Lanes(), Int32Lanes(), Int32Lanes())
        forEachPanelPair(pairs: pairs, segments: segments, segmentStride: segmentStride, panel: panel) { b, at in
            @inline(__always) func row(_ r: UnsafeRawPointer) -> Int32Lanes { pairProducts(broadcastPair(r, byteOffset: at), b) }
            c0 &+= row(a0); c1 &+= row(a1); c2 &+= row(a2); c3 &+= row(a3); c4 &+= row(a4); c5 &+= row(a5)
        }
        storeSums((c0, c1, c2, c3, c4, c5), to: sums)
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
            @inline(__always) func row(_ r: UnsafeRawPointer) -> Int32Lanes { pairProducts(splat(r, k), b) }
            c0 &+= row(a0); c1 &+= row(a1); c2 &+= row(a2); c3 &+= row(a3); c4 &+= row(a4); c5 &+= row(a5)
        }
        storeSums((c0, c1, c2, c3, c4, c5), to: sums)
        #endif
    }

    /// Stores a tile's six rows of sums to `sums` (`[rowTile][8]`).
    @inline(__always)
    private static func storeSums(_ c: (Int32Lanes, Int32Lanes, Int32Lanes, Int32Lanes, Int32Lanes, Int32Lanes),
                                  to sums: UnsafeMutableRawPointer) {
        @inline(__always) func put(_ v: Int32Lanes, _ row: Int) {
            sums.storeBytes(of: v, toByteOffset: row * 32, as: Int32Lanes.self)
        }
        put(c.0, 0); put(c.1, 1); put(c.2, 2); put(c.3, 3); put(c.4, 4); put(c.5, 5)
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
