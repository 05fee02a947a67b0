#if TFLITE_ISA_MODULE
import Kernels
#endif
// The accumulators of an AVX-512 tile's panel: a whole panel in SIMD16<Float>, or, for a panel
// of at most 8 valid columns, its first half in SIMD8<Float>, one ymm register each. That is
// the lone panel of a layer of 8 output channels (`GEMM.tilePanel`; mobilenet_v2's narrow
// projections) and the last panel of a wider tile (`GEMM.tilePanels`; layers of 24, 40 or 18
// channels). Sixteen-lane accumulators would spend half of every multiply-add on the panel's
// zero padding, and a 512-bit multiply-add costs two 256-bit ones on the cores that split them
// (AMD Zen 4), so 8 lanes do the same work in about half the time there (mobilenet_v2_float's
// three 8-channel projections 62/43/46 -> 45/29/30 us; ssd_detector_float's two 18-channel
// box layers, whole model 0.99 -> 0.95 ms).
#if TFLITE_AVX512
import X86Intrinsics

/// The accumulator vector of the single-panel tile, with its row loads and stores.
protocol PanelVector: SIMD where Scalar == Float {
    /// `count` floats of one output row (zeros past `count`).
    static func loadColumns(_ row: UnsafePointer<Float>, count: Int) -> Self
    /// ``GEMM/storeRow(_:_:rowCount:activation:residual:c:ldc:columnCount:)`` for this vector.
    static func storeRow(_ v: Self, _ i: Int, rowCount: Int, activation: ActivationRange<Float>?,
                         residual: GEMMResidual?, c: UnsafeMutablePointer<Float>, ldc: Int, columnCount: Int)
    /// Stores `v`, each lane clamped to `lo...hi`, at `row` (a whole vector of valid columns).
    static func storeClamped(_ v: Self, _ lo: Self, _ hi: Self, to row: UnsafeMutableRawPointer)
    /// The first lanes of a whole-panel vector: a broadcast row value, a bias, a bound.
    static func part(_ v: SIMD16<Float>) -> Self
    /// This vector's columns of one depth step of a packed panel at `step`.
    static func loadPanelStep(_ step: UnsafeRawPointer) -> Self
}

extension PanelVector {
    /// Row `i` of a tile's partial sums from an earlier depth block (`count` valid columns of
    /// `c + i * ldc`), or `fallback` for a row past `rowCount`, which the tile computes but
    /// never stores.
    @_transparent
    static func partialSums(row i: Int, rowCount: Int, c: UnsafePointer<Float>, ldc: Int, count: Int,
                            otherwise fallback: Self) -> Self {
        i < rowCount ? loadColumns(c + i &* ldc, count: count) : fallback
    }
}

extension SIMD16: PanelVector where Scalar == Float {
    @inline(__always)
    static func loadColumns(_ row: UnsafePointer<Float>, count: Int) -> SIMD16<Float> {
        GEMM.loadColumns(row, count: count)
    }

    @inline(__always)
    static func storeRow(_ v: SIMD16<Float>, _ i: Int, rowCount: Int, activation: ActivationRange<Float>?,
                         residual: GEMMResidual?, c: UnsafeMutablePointer<Float>, ldc: Int, columnCount: Int) {
        GEMM.storeRow(v, i, rowCount: rowCount, activation: activation, residual: residual, c: c, ldc: ldc,
                      columnCount: columnCount)
    }

    @_transparent
    static func storeClamped(_ v: SIMD16<Float>, _ lo: SIMD16<Float>, _ hi: SIMD16<Float>, to row: UnsafeMutableRawPointer) {
        storeVector(clampVector(v, lo, hi), to: row)
    }

    @_transparent
    static func part(_ v: SIMD16<Float>) -> SIMD16<Float> { v }

    @_transparent
    static func loadPanelStep(_ step: UnsafeRawPointer) -> SIMD16<Float> { loadVector(step) }
}

extension SIMD8: PanelVector where Scalar == Float {
    /// At most 8 floats.
    @inline(__always)
    static func loadColumns(_ row: UnsafePointer<Float>, count: Int) -> SIMD8<Float> {
        if count == scalarCount { return UnsafeRawPointer(row).loadUnaligned(as: SIMD8<Float>.self) }
        var v = SIMD8<Float>(repeating: 0)
        var j = 0
        while j < count { v[j] = row[j]; j &+= 1 }
        return v
    }

    /// At most 8 columns.
    @inline(__always)
    static func storeRow(_ v: SIMD8<Float>, _ i: Int, rowCount: Int, activation: ActivationRange<Float>?,
                         residual: GEMMResidual?, c: UnsafeMutablePointer<Float>, ldc: Int, columnCount: Int) {
        guard i < rowCount else { return }
        var v = v
        if let residual {
            let columns = residual.columns < columnCount ? residual.columns : columnCount
            v += loadColumns(residual.base + i &* residual.rowStride, count: columns > 0 ? columns : 0)
        }
        if let activation { v = v.clampedLanes(activation.min, activation.max) }
        let row = c + i &* ldc
        if columnCount == scalarCount {
            UnsafeMutableRawPointer(row).storeBytes(of: v, as: SIMD8<Float>.self)
        } else {
            var j = 0
            while j < columnCount { row[j] = v[j]; j &+= 1 }
        }
    }

    @_transparent
    static func storeClamped(_ v: SIMD8<Float>, _ lo: SIMD8<Float>, _ hi: SIMD8<Float>, to row: UnsafeMutableRawPointer) {
        storeVector(clampVector(v, lo, hi), to: row)
    }

    /// The low half: the same register read as ymm, no instruction.
    @_transparent
    static func part(_ v: SIMD16<Float>) -> SIMD8<Float> { v.lowHalf }

    @_transparent
    static func loadPanelStep(_ step: UnsafeRawPointer) -> SIMD8<Float> { loadHalfVector(step) }
}
#endif
