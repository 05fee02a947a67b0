#if TFLITE_ISA_MODULE
import Kernels
#endif
/// Single-precision matrix product `C[m][n] = act(A[m][k] * W[n][k]^T + bias[n])` against weights
/// packed by ``PackedGEMMWeights``, the engine behind the optimised CONV_2D and FULLY_CONNECTED.
///
/// The micro-kernel computes a tile of ``rowTile`` rows by ``panelWidth`` columns in registers.
/// Its shape depends on the instruction set this copy of the kernels is compiled for (see
/// ``OptimizedKernels``):
/// - baseline and AVX2 (`GEMM+Tile8.swift`): 6 x 8 in `SIMD8<Float>` accumulators, which fit the
///   16 registers of both SSE2 (two xmm per vector) and AVX2;
/// - AVX-512 (`GEMM+Tile16.swift`): 8 x 48 (three panels at once), 8 x 32 or 8 x 16 in
///   `SIMD16<Float>` accumulators, up to 24 of the 32 zmm registers.
/// The multiply-adds go through `multiplyAdd`, fused where the variant has FMA.
enum GEMM {
    /// Output columns per packed panel (one ``Vector``).
    static let panelWidth = Vector.scalarCount

    /// Computes rows `rows` and panels `panels` of the product.
    ///
    /// - Parameters:
    ///   - a: the left matrix; row `i` starts at `a + i * lda` and holds `weights.depth` floats.
    ///   - rows: the rows of `A` (and `C`) to compute.
    ///   - weights: the packed right-hand matrix.
    ///   - panels: the panels (groups of ``panelWidth`` output columns) to compute.
    ///   - bias: `weights.outputCount` floats added to every row, or nil.
    ///   - activation: the clamp applied to every result.
    ///   - residual: a matrix added to every result before the clamp (a residual ADD folded
    ///     into the convolution before it), its row `i` for row `i` of `C`; or nil.
    ///   - c: the output; row `i` starts at `c + i * ldc`.
    static func multiply(a: UnsafePointer<Float>, lda: Int, rows: Range<Int>,
                         weights: PackedGEMMWeights, panels: Range<Int>,
                         bias: UnsafePointer<Float>?, activation: ActivationRange<Float>,
                         residual: GEMMResidual? = nil,
                         c: UnsafeMutablePointer<Float>, ldc: Int) {
        weights.panels.withUnsafeBufferPointer { packed in
            guard let base = packed.baseAddress else { return }
            let k = weights.depth
            // Depth is processed in blocks so a tile's slices of A (rowTile x depthBlock) and of
            // the panel (depthBlock x panelWidth) stay in L1; later blocks accumulate onto the
            // partial sums. Within a depth block, rows go in blocks of about 32 KiB of A that
            // every panel reuses from cache, instead of streaming all of A once per panel.
            var k0 = 0
            while k0 < k {
                let kLength = Swift.min(depthBlock, k - k0)
                let first = k0 == 0, last = k0 + kLength == k
                // The residual joins the finished sums, with the clamp.
                let finalResidual = last ? residual : nil
                let blockRows = Swift.max(1, rowBlockBytes / (4 * kLength * rowTile)) * rowTile
                var r0 = rows.lowerBound
                while r0 < rows.upperBound {
                    // The last block takes the rows short of a whole one, so that the tiles
                    // split them with the rest (see RowTiling).
                    let r1 = rows.upperBound - r0 < 2 * blockRows ? rows.upperBound : r0 + blockRows
                    // Panels go in groups of the tiles' width (``groupWidth(panelsLeft:)``).
                    var p = panels.lowerBound
                    while p < panels.upperBound {
                        let group = PanelGroup(weights: weights, packed: base, first: p,
                                               count: groupWidth(panelsLeft: panels.upperBound - p),
                                               depthOffset: k0, bias: first ? bias : nil)
                        let col0 = p * panelWidth
                        var r = r0
                        while r < r1 {
                            let mr = Swift.min(rowsPerCall, r1 - r)
                            tileGroup(a: a + r * lda + k0, lda: lda, rowCount: mr, depth: kLength, group: group,
                                      accumulate: !first, activation: last ? activation : nil,
                                      residual: finalResidual?.advanced(rows: r, column: col0), c: c + r * ldc + col0,
                                      ldc: ldc)
                            r += mr
                        }
                        p += group.count
                    }
                    r0 = r1
                }
                k0 += kLength
            }
        }
    }

    /// One to three adjacent panels that one micro-kernel tile computes (as many as the
    /// variant's tiles take, ``groupWidth(panelsLeft:)``): where each starts at the depth step
    /// the tile begins at, its bias (zeros for a later depth block, which adds onto partial
    /// sums), and the valid columns of the last (the others are full). Unused panels repeat
    /// the first.
    struct PanelGroup {
        let count: Int
        let panel0: UnsafePointer<Float>, panel1: UnsafePointer<Float>, panel2: UnsafePointer<Float>
        let bias0: Vector, bias1: Vector, bias2: Vector
        let lastColumns: Int

        /// Panels `first ..< first + count` of `weights` (whose panels are at `packed`), from
        /// depth step `depthOffset` on; `bias` is nil past the first depth block.
        @inline(__always)
        init(weights: PackedGEMMWeights, packed: UnsafePointer<Float>, first: Int, count: Int, depthOffset: Int,
             bias: UnsafePointer<Float>?) {
            let k = weights.depth
            @inline(__always) func panel(_ i: Int) -> UnsafePointer<Float> {
                packed + ((first + (i < count ? i : 0)) * k + depthOffset) * panelWidth
            }
            @inline(__always) func columns(_ i: Int) -> Int {
                Swift.min(panelWidth, weights.outputCount - (first + i) * panelWidth)
            }
            @inline(__always) func biasOf(_ i: Int) -> Vector {
                i < count ? biasVector(bias, from: (first + i) * panelWidth, count: columns(i)) : Vector(repeating: 0)
            }
            self.count = count
            (panel0, panel1, panel2) = (panel(0), panel(1), panel(2))
            (bias0, bias1, bias2) = (biasOf(0), biasOf(1), biasOf(2))
            lastColumns = columns(count - 1)
        }
    }

    /// `count` bias values from `bias + start` in a vector (zeros past `count`, or all zeros
    /// without a bias). Loaded as an output row is (``loadColumns(_:count:)``): filled lane by
    /// lane, a whole panel's bias took 16 masked inserts, which a first layer's direct tiles
    /// paid for every 8 pixels (a sixth of mobilenet_v2's first convolution).
    @inline(__always)
    static func biasVector(_ bias: UnsafePointer<Float>?, from start: Int, count: Int) -> Vector {
        guard let bias else { return Vector(repeating: 0) }
        return loadColumns(bias + start, count: count)
    }

    /// Replaces the first `rowCount` vectors of `tile` (a tuple of ``Vector``s, one per row)
    /// with the partial sums already in `c` (`columnCount` valid columns per row).
    @inline(__always)
    static func loadPartialSums<Tile>(into tile: inout Tile, rowCount: Int, c: UnsafeMutablePointer<Float>,
                                      ldc: Int, columnCount: Int) {
        withUnsafeMutableBytes(of: &tile) { bytes in
            for i in 0..<rowCount {
                bytes.storeBytes(of: loadColumns(c + i * ldc, count: columnCount), toByteOffset: i * MemoryLayout<Vector>.stride,
                                 as: Vector.self)
            }
        }
    }

    /// Stores the first `rowCount` vectors of `tile` (a tuple of ``Vector``s) to the rows of
    /// `c`, `columnCount` columns each, plus the rows of `residual` when given, then
    /// clamped when `activation` is given.
    @inline(__always)
    static func storeTile<Tile>(_ tile: Tile, rowCount: Int, activation: ActivationRange<Float>?,
                                residual: GEMMResidual?,
                                c: UnsafeMutablePointer<Float>, ldc: Int, columnCount: Int) {
        withUnsafeBytes(of: tile) { bytes in
            for i in 0..<rowCount {
                var v = bytes.load(fromByteOffset: i * MemoryLayout<Vector>.stride, as: Vector.self)
                if let residual {
                    v += loadColumns(residual.base + i * residual.rowStride,
                                     count: Swift.max(0, Swift.min(columnCount, residual.columns)))
                }
                if let activation { v = v.clampedLanes(activation.min, activation.max) }
                storeColumns(v, to: c + i * ldc, count: columnCount)
            }
        }
    }

    /// Stores accumulator row `i` of a tile to row `i` of `c` (`columnCount` columns), plus row
    /// `i` of `residual` when given, then clamped when `activation` is given; nothing for rows
    /// at or past `rowCount`. The AVX-512 tiles call it once per named accumulator: passing
    /// their rows to ``storeTile(_:rowCount:activation:residual:c:ldc:columnCount:)`` as a
    /// tuple wrote every row to the stack and read it back, which on a shallow layer (8 or 16
    /// input channels) doubled the stores of a store-bound tile.
    @_transparent
    static func storeRow(_ v: Vector, _ i: Int, rowCount: Int, activation: ActivationRange<Float>?,
                         residual: GEMMResidual?, c: UnsafeMutablePointer<Float>, ldc: Int, columnCount: Int) {
        if i < rowCount {
            var v = v
            if let residual {
                // Written out: the generic `min` and `max` stayed calls here.
                let columns = residual.columns < columnCount ? residual.columns : columnCount
                v += loadColumns(residual.base + i &* residual.rowStride, count: columns > 0 ? columns : 0)
            }
            if let activation { v = v.clampedLanes(activation.min, activation.max) }
            storeColumns(v, to: c + i &* ldc, count: columnCount)
        }
    }

    /// `count` floats of one output row as a vector (zeros past `count`). A full panel is one
    /// load and half a panel (24, 40, ... channels) one half-width load; only the rest goes
    /// lane by lane.
    @inline(__always)
    static func loadColumns(_ row: UnsafePointer<Float>, count: Int) -> Vector {
        if count == panelWidth { return UnsafeRawPointer(row).loadUnaligned(as: Vector.self) }
        var v = Vector(repeating: 0)
        var j = 0
        if count >= panelWidth / 2 {
            v.lowHalf = UnsafeRawPointer(row).loadUnaligned(as: type(of: v.lowHalf))
            j = panelWidth / 2
        }
        while j < count { v[j] = row[j]; j += 1 }
        return v
    }

    /// Stores the first `count` lanes of `v` to `row` (see ``loadColumns(_:count:)``).
    @inline(__always)
    static func storeColumns(_ v: Vector, to row: UnsafeMutablePointer<Float>, count: Int) {
        if count == panelWidth {
            UnsafeMutableRawPointer(row).storeBytes(of: v, as: Vector.self)
            return
        }
        var j = 0
        if count >= panelWidth / 2 {
            UnsafeMutableRawPointer(row).storeBytes(of: v.lowHalf, as: type(of: v.lowHalf))
            j = panelWidth / 2
        }
        while j < count { row[j] = v[j]; j += 1 }
    }

    /// Depth per block (see ``multiply(a:lda:rows:weights:panels:bias:activation:c:ldc:)``).
    static let depthBlock = 256
    /// Bytes of `A` per row block (see ``multiply(a:lda:rows:weights:panels:bias:activation:c:ldc:)``).
    static let rowBlockBytes = 32 * 1024
}
