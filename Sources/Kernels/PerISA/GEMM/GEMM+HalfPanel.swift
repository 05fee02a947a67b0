#if TFLITE_ISA_MODULE
import Kernels
#endif
// The AVX-512 tile for a panel of at most 8 valid columns (a layer of 8 output channels, as
// mobilenet_v2's narrow projections have): its sums in SIMD8<Float>, one ymm register each.
// Sixteen-lane accumulators would spend half of every multiply-add on the panel's zero
// padding, and a 512-bit multiply-add costs two 256-bit ones on the cores that split them
// (AMD Zen 4), so 8 lanes do the same work in about half the time there (measured on
// mobilenet_v2_float's three 8-channel projections).
#if TFLITE_AVX512
extension GEMM {
    /// Half of a ``Vector``: the accumulator of the half-panel tile.
    typealias HalfVector = SIMD8<Float>

    /// ``tile(a:lda:rowCount:depth:segments:segmentStride:panel:bias:accumulate:activation:residual:c:ldc:columnCount:)``
    /// for `columnCount <= panelWidth / 2`: the same contract, reading the first 8 floats of
    /// each step of the panel.
    @inline(never)
    static func tileHalfPanel(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                              segments: Int, segmentStride: Int,
                              panel: UnsafePointer<Float>, bias: HalfVector, accumulate: Bool,
                              activation: ActivationRange<Float>?, residual: GEMMResidual?,
                              c: UnsafeMutablePointer<Float>, ldc: Int, columnCount: Int) {
        let tiling = RowTiling(rows: rowCount)
        var r = 0
        while r < rowCount {
            let height = tiling.height(at: r)
            if height == 8 {
                tileHalfPanelRows(a: a + r &* lda, lda: lda, rowCount: Swift.min(rowTile, rowCount &- r), depth: depth,
                                  segments: segments, segmentStride: segmentStride, panel: panel, bias: bias,
                                  accumulate: accumulate, activation: activation,
                                  residual: residual?.advanced(rows: r, column: 0), c: c + r &* ldc, ldc: ldc,
                                  columnCount: columnCount, height: EightRows.self)
            } else {
                tileHalfPanelShortRows(a: a + r &* lda, lda: lda, rowCount: Swift.min(height, rowCount &- r), depth: depth,
                                       segments: segments, segmentStride: segmentStride, panel: panel, bias: bias,
                                       accumulate: accumulate, activation: activation,
                                       residual: residual?.advanced(rows: r, column: 0), c: c + r &* ldc, ldc: ldc,
                                       columnCount: columnCount, seven: height == 7)
            }
            r &+= height
        }
    }

    /// A tile of 7 rows, or a last one of at most 4 (see ``RowTiling``), out of line for the
    /// reason given at `tilePairShortRows`.
    @inline(never)
    private static func tileHalfPanelShortRows(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                                               segments: Int, segmentStride: Int,
                                               panel: UnsafePointer<Float>, bias: HalfVector, accumulate: Bool,
                                               activation: ActivationRange<Float>?, residual: GEMMResidual?,
                                               c: UnsafeMutablePointer<Float>, ldc: Int, columnCount: Int, seven: Bool) {
        @inline(__always) func rows(_ height: (some TileHeight).Type) {
            tileHalfPanelRows(a: a, lda: lda, rowCount: rowCount, depth: depth, segments: segments,
                              segmentStride: segmentStride, panel: panel, bias: bias, accumulate: accumulate,
                              activation: activation, residual: residual, c: c, ldc: ldc, columnCount: columnCount,
                              height: height)
        }
        if seven { rows(SevenRows.self) } else { rows(FourRows.self) }
    }

    @inline(__always)
    private static func tileHalfPanelRows(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                                          segments: Int, segmentStride: Int,
                                          panel: UnsafePointer<Float>, bias: HalfVector, accumulate: Bool,
                                          activation: ActivationRange<Float>?, residual: GEMMResidual?,
                                          c: UnsafeMutablePointer<Float>, ldc: Int, columnCount: Int,
                                          height: (some TileHeight).Type) {
        var (c0, c1, c2, c3, c4, c5, c6, c7) = (bias, bias, bias, bias, bias, bias, bias, bias)
        if accumulate {
            @_transparent func partial(_ i: Int) -> HalfVector {
                i < rowCount ? loadHalfColumns(c + i &* ldc, count: columnCount) : bias
            }
            (c0, c1, c2, c3) = (partial(0), partial(1), partial(2), partial(3))
            if height.rows > 4 { (c4, c5, c6, c7) = (partial(4), partial(5), partial(6), partial(7)) }
        }
        let a0 = a
        let a1 = rowCount > 1 ? a + lda : a, a2 = rowCount > 2 ? a + 2 &* lda : a
        let a3 = rowCount > 3 ? a + 3 &* lda : a, a4 = rowCount > 4 ? a + 4 &* lda : a
        let a5 = rowCount > 5 ? a + 5 &* lda : a, a6 = rowCount > 6 ? a + 6 &* lda : a
        let a7 = rowCount > 7 ? a + 7 &* lda : a
        var raw = UnsafeRawPointer(panel)
        var offset = 0
        for _ in 0..<segments {
            for k in 0..<depth {
                // The panel keeps its 16-float steps; only their first half is read.
                let b = raw.loadUnaligned(fromByteOffset: k &* 64, as: HalfVector.self)
                let i = offset &+ k
                c0.addProduct(HalfVector(repeating: a0[i]), b)
                c1.addProduct(HalfVector(repeating: a1[i]), b)
                c2.addProduct(HalfVector(repeating: a2[i]), b)
                c3.addProduct(HalfVector(repeating: a3[i]), b)
                if height.rows > 4 {
                    c4.addProduct(HalfVector(repeating: a4[i]), b)
                    c5.addProduct(HalfVector(repeating: a5[i]), b)
                    c6.addProduct(HalfVector(repeating: a6[i]), b)
                }
                if height.rows > 7 { c7.addProduct(HalfVector(repeating: a7[i]), b) }
            }
            raw += depth &* 64
            offset &+= segmentStride
        }
        @_transparent func store(_ i: Int, _ v: HalfVector) {
            guard i < rowCount else { return }
            var v = v
            if let residual {
                let columns = residual.columns < columnCount ? residual.columns : columnCount
                v += loadHalfColumns(residual.base + i &* residual.rowStride, count: columns > 0 ? columns : 0)
            }
            if let activation { v = v.clampedLanes(activation.min, activation.max) }
            let row = c + i &* ldc
            if columnCount == HalfVector.scalarCount {
                UnsafeMutableRawPointer(row).storeBytes(of: v, as: HalfVector.self)
            } else {
                var j = 0
                while j < columnCount { row[j] = v[j]; j &+= 1 }
            }
        }
        store(0, c0); store(1, c1); store(2, c2); store(3, c3)
        if height.rows > 4 { store(4, c4); store(5, c5); store(6, c6) }
        if height.rows > 7 { store(7, c7) }
    }

    /// `count` (at most 8) floats of a row as a half vector, zeros past `count`.
    @inline(__always)
    static func loadHalfColumns(_ row: UnsafePointer<Float>, count: Int) -> HalfVector {
        if count == HalfVector.scalarCount { return UnsafeRawPointer(row).loadUnaligned(as: HalfVector.self) }
        var v = HalfVector(repeating: 0)
        var j = 0
        while j < count { v[j] = row[j]; j &+= 1 }
        return v
    }
}
#endif
