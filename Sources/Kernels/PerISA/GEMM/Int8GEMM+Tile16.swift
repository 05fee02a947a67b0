#if TFLITE_ISA_MODULE
import Kernels
#endif
// The AVX-512 int8 micro-kernel (the AVX-512 variants, TFLITE_AVX512): 12 rows x 16 channels in
// SIMD16<Int32> accumulators (12 of the 32 zmm registers), like the float GEMM's tile. With
// VNNI each step is one `vpdpwssd` per row, its broadcast pair folded into the instruction.
#if TFLITE_AVX512
extension Int8GEMM {
    /// Rows per micro-kernel tile.
    static let rowTile = 12
    /// Copies of each int16 pair in a gathered row: one, since the broadcast of a pair is a
    /// load (`vpbroadcastd`, or folded into `vpdpwssd`).
    static let pairCopies = 1
    /// Rows per gathered tile (see ``tileSums(a:lda:rowCount:pairs:panel:panelStride:blocks:sums:)``).
    /// Tiles of 16 rows, in two passes of the kernel, measured no faster.
    static let gatheredTileRows = 8
    /// Blocks of channels per call of ``tileSums(a:lda:rowCount:pairs:panel:panelStride:blocks:sums:)``.
    static let tileBlocks = 2

    /// The sums of a gathered tile of at most ``gatheredTileRows`` rows with `blocks` (1 or 2)
    /// consecutive blocks of packed weights, `panelStride` int16 values apart, stored to
    /// `sums` as `[block][gatheredTileRows][16]`. Two blocks take the 8 x 32 kernel, whose 16
    /// multiply-adds per depth step need 10 loads (two of weights, eight folded broadcasts),
    /// where the 12 x 16 `blockSums` needs 13 loads for 12.
    @inline(__always)
    static func tileSums(a: UnsafePointer<Int16>, lda: Int, rowCount: Int, pairs: Int,
                         panel: UnsafePointer<Int16>, panelStride: Int, blocks: Int, sums: UnsafeMutableRawPointer) {
        if blocks == 2 {
            blockPairSums(a: a, lda: lda, rowCount: rowCount, pairs: pairs, panel0: panel, panel1: panel + panelStride,
                          sums: sums)
        } else {
            blockSums(a: a, lda: lda, rowCount: rowCount, pairs: pairs, panel: panel, sums: sums)
        }
    }

    /// ``blockSums(a:lda:rowCount:pairs:segments:segmentStride:panel:sums:)`` for at most 8 rows
    /// and two blocks at once: `sums` gets the first block's `[8][16]` sums, then the second's.
    @inline(never)
    static func blockPairSums(a: UnsafePointer<Int16>, lda: Int, rowCount: Int, pairs: Int,
                              panel0: UnsafePointer<Int16>, panel1: UnsafePointer<Int16>,
                              sums: UnsafeMutableRawPointer) {
        let (a0, a1, a2, a3, a4, a5, a6, a7) = tileRows(a, lda: lda, rowCount: rowCount)
        let zero = Int32Lanes()
        var (l0, l1, l2, l3, l4, l5, l6, l7) = (zero, zero, zero, zero, zero, zero, zero, zero)
        var (r0, r1, r2, r3, r4, r5, r6, r7) = (zero, zero, zero, zero, zero, zero, zero, zero)
        let raw0 = UnsafeRawPointer(panel0), raw1 = UnsafeRawPointer(panel1)
        for k in 0..<pairs {
            let b0 = raw0.loadUnaligned(fromByteOffset: k &* 64, as: Int16PairLanes.self)
            let b1 = raw1.loadUnaligned(fromByteOffset: k &* 64, as: Int16PairLanes.self)
            let at = 4 &* k
            var x = broadcastPair(a0, byteOffset: at); l0 &+= pairProducts(x, b0); r0 &+= pairProducts(x, b1)
            x = broadcastPair(a1, byteOffset: at); l1 &+= pairProducts(x, b0); r1 &+= pairProducts(x, b1)
            x = broadcastPair(a2, byteOffset: at); l2 &+= pairProducts(x, b0); r2 &+= pairProducts(x, b1)
            x = broadcastPair(a3, byteOffset: at); l3 &+= pairProducts(x, b0); r3 &+= pairProducts(x, b1)
            x = broadcastPair(a4, byteOffset: at); l4 &+= pairProducts(x, b0); r4 &+= pairProducts(x, b1)
            x = broadcastPair(a5, byteOffset: at); l5 &+= pairProducts(x, b0); r5 &+= pairProducts(x, b1)
            x = broadcastPair(a6, byteOffset: at); l6 &+= pairProducts(x, b0); r6 &+= pairProducts(x, b1)
            x = broadcastPair(a7, byteOffset: at); l7 &+= pairProducts(x, b0); r7 &+= pairProducts(x, b1)
        }
        @inline(__always) func put(_ c: Int32Lanes, _ slot: Int) {
            sums.storeBytes(of: c, toByteOffset: slot * 64, as: Int32Lanes.self)
        }
        put(l0, 0); put(l1, 1); put(l2, 2); put(l3, 3); put(l4, 4); put(l5, 5); put(l6, 6); put(l7, 7)
        put(r0, 8); put(r1, 9); put(r2, 10); put(r3, 11); put(r4, 12); put(r5, 13); put(r6, 14); put(r7, 15)
    }

    /// The int32 sums of `rowCount` (at most ``rowTile``) rows of `a` (`lda` int16 values
    /// apart) with one block of packed weights, stored to `sums` (`[rowTile][16]`); the depth
    /// runs as ``forEachPanelPair(pairs:segments:segmentStride:panel:_:)`` says. Missing rows
    /// alias row 0 so the loop body stays branch-free; their sums are meaningless.
    ///
    /// Compiled out of line: inlined into a large caller, the lane shuffles of `pairProducts`
    /// stayed calls instead of becoming one pair-product instruction.
    @inline(never)
    static func blockSums(a: UnsafePointer<Int16>, lda: Int, rowCount: Int, pairs: Int,
                          segments: Int = 1, segmentStride: Int = 0,
                          panel: UnsafePointer<Int16>, sums: UnsafeMutableRawPointer) {
        let (a0, a1, a2, a3, a4, a5, a6, a7) = tileRows(a, lda: lda, rowCount: rowCount)
        let a8 = tileRow(a, 8, lda: lda, rowCount: rowCount)
        let a9 = tileRow(a, 9, lda: lda, rowCount: rowCount)
        let a10 = tileRow(a, 10, lda: lda, rowCount: rowCount)
        let a11 = tileRow(a, 11, lda: lda, rowCount: rowCount)
        let zero = Int32Lanes()
        var (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11) = (zero, zero, zero, zero, zero, zero,
                                                                   zero, zero, zero, zero, zero, zero)
        // The depth loop of ``forEachPanelPair(pairs:segments:segmentStride:panel:_:)``, written
        // out: through that function's closure, the pair products of 16 lanes lost their
        // pair-product instruction to multiplies and permutes.
        var raw = UnsafeRawPointer(panel)
        var offset = 0
        for _ in 0..<segments {
            for k in 0..<pairs {
                let b = raw.loadUnaligned(fromByteOffset: k &* 64, as: Int16PairLanes.self)
                let at = offset &+ 4 &* k
                @inline(__always) func row(_ r: UnsafeRawPointer) -> Int32Lanes { pairProducts(broadcastPair(r, byteOffset: at), b) }
                c0 &+= row(a0); c1 &+= row(a1); c2 &+= row(a2); c3 &+= row(a3); c4 &+= row(a4); c5 &+= row(a5)
                c6 &+= row(a6); c7 &+= row(a7); c8 &+= row(a8); c9 &+= row(a9); c10 &+= row(a10); c11 &+= row(a11)
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

    /// The first eight row pointers of a tile (see ``tileRow(_:_:lda:rowCount:)``).
    @inline(__always)
    private static func tileRows(_ a: UnsafePointer<Int16>, lda: Int, rowCount: Int)
        -> (UnsafeRawPointer, UnsafeRawPointer, UnsafeRawPointer, UnsafeRawPointer,
            UnsafeRawPointer, UnsafeRawPointer, UnsafeRawPointer, UnsafeRawPointer) {
        (tileRow(a, 0, lda: lda, rowCount: rowCount), tileRow(a, 1, lda: lda, rowCount: rowCount),
         tileRow(a, 2, lda: lda, rowCount: rowCount), tileRow(a, 3, lda: lda, rowCount: rowCount),
         tileRow(a, 4, lda: lda, rowCount: rowCount), tileRow(a, 5, lda: lda, rowCount: rowCount),
         tileRow(a, 6, lda: lda, rowCount: rowCount), tileRow(a, 7, lda: lda, rowCount: rowCount))
    }
}
#endif
