#if TFLITE_ISA_MODULE
import Kernels
#endif
// The AVX-512 micro-kernels (the AVX-512 variants, TFLITE_AVX512): tiles of 8 rows (7 where
// that splits a run exactly, see RowTiling) by one to three 16-float panels in SIMD16<Float>
// accumulators (see GEMM; a lone panel of at most 8 columns in SIMD8<Float>, see
// GEMM+HalfPanel.swift), stored a named row at a time.
#if TFLITE_AVX512
import X86Intrinsics

extension GEMM {
    /// The accumulator vector: 16 floats, one zmm register.
    typealias Vector = SIMD16<Float>
    /// Rows of `A` per micro-kernel tile.
    static let rowTile = 8
    /// Output columns per micro-kernel tile: up to three panels at once.
    static let tileColumns = 3 * panelWidth
    /// Rows per call of the micro-kernels: any number, since they walk their rows a tile at a
    /// time themselves. One call per tile cost a shallow layer (8 input channels) about as
    /// much as its multiply-adds.
    static let rowsPerCall = Int.max

    /// Rows the tiles compute for a run of `count` rows, the repeated ones of a short last
    /// tile included (see ``RowTiling``).
    static func tiledRows(_ count: Int) -> Int { RowTiling(rows: count).computedRows }

    /// The panels of the tile for `panelsLeft` panels still to compute (see ``PanelGroup``):
    /// three, but two and two for four (a lone last panel would take the single-panel tile).
    static func groupWidth(panelsLeft: Int) -> Int {
        panelsLeft == 4 ? 2 : panelsLeft < 3 ? panelsLeft : 3
    }

    /// `rowCount` rows (any number) by the panels of `group` (one to three) over one depth
    /// block: ``tilePanels(_:a:lda:rowCount:depth:segments:segmentStride:group:accumulate:activation:residual:c:ldc:)``
    /// for two or three panels, ``tile(a:lda:rowCount:depth:segments:segmentStride:panel:bias:accumulate:activation:residual:c:ldc:columnCount:)``
    /// for one.
    @inline(__always)
    static func tileGroup(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                          segments: Int = 1, segmentStride: Int = 0, group: PanelGroup,
                          accumulate: Bool, activation: ActivationRange<Float>?, residual: GEMMResidual? = nil,
                          c: UnsafeMutablePointer<Float>, ldc: Int) {
        switch group.count {
        case 3:
            tilePanels(ThreePanels.self, a: a, lda: lda, rowCount: rowCount, depth: depth, segments: segments,
                       segmentStride: segmentStride, group: group, accumulate: accumulate, activation: activation,
                       residual: residual, c: c, ldc: ldc)
        case 2:
            tilePanels(TwoPanels.self, a: a, lda: lda, rowCount: rowCount, depth: depth, segments: segments,
                       segmentStride: segmentStride, group: group, accumulate: accumulate, activation: activation,
                       residual: residual, c: c, ldc: ldc)
        default:
            tile(a: a, lda: lda, rowCount: rowCount, depth: depth, segments: segments, segmentStride: segmentStride,
                 panel: group.panel0, bias: group.bias0, accumulate: accumulate, activation: activation,
                 residual: residual, c: c, ldc: ldc, columnCount: group.lastColumns)
        }
    }

    /// `rowCount` rows (any number) by two or three adjacent panels (`W`: 32 or 48 columns) over
    /// one depth block, in tiles of ``rowTile`` rows: eight accumulators, one panel load and the
    /// same eight broadcasts of `A` per panel and depth step, so the FMA units, not the loads,
    /// set the pace (a 12 x 16 tile needed 13 loads for 12 FMAs). Three panels share each
    /// broadcast and each tile's fixed work (row pointers, loop, stores) among 24 multiply-adds
    /// per step where a pair and a lone panel had 16 and 8: a 48-column layer of 8 input
    /// channels took 10% less time. Every panel of `group` but its last is full; see
    /// ``tile(a:lda:rowCount:depth:segments:segmentStride:panel:bias:accumulate:activation:residual:c:ldc:columnCount:)``
    /// for the rest. Kept out of line, like `tile`: compiled on its own, the loop keeps its
    /// eight row pointers in registers, where inlined into the blocking loops it spilled them
    /// and reloaded one per multiply-add.
    @inline(never)
    static func tilePanels<W: TileWidth>(_ width: W.Type, a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                                         segments: Int, segmentStride: Int, group: PanelGroup,
                                         accumulate: Bool, activation: ActivationRange<Float>?, residual: GEMMResidual?,
                                         c: UnsafeMutablePointer<Float>, ldc: Int) {
        let tiling = RowTiling(rows: rowCount)
        var r = 0
        while r < rowCount {
            let height = tiling.height(at: r)
            if height == 8 {
                tilePanelsRows(a: a + r &* lda, lda: lda, rowCount: tiling.rows(at: r, height: rowTile), depth: depth,
                               segments: segments, segmentStride: segmentStride, group: group, accumulate: accumulate,
                               activation: activation, residual: residual?.advanced(rows: r, column: 0),
                               c: c + r &* ldc, ldc: ldc, width: W.self, height: EightRows.self)
            } else {
                tilePanelsShortRows(W.self, a: a + r &* lda, lda: lda, rowCount: tiling.rows(at: r, height: height),
                                    depth: depth, segments: segments, segmentStride: segmentStride, group: group,
                                    accumulate: accumulate, activation: activation,
                                    residual: residual?.advanced(rows: r, column: 0), c: c + r &* ldc, ldc: ldc,
                                    seven: height == 7)
            }
            r &+= height
        }
    }

    /// A tile of 7 rows, or a last one of at most 4, of `tilePanels` (see ``RowTiling``), out of
    /// line so that `tilePanels`'s own loop keeps one tile body: with both inlined there, the
    /// eight-row loop of a small-channel convolution spilled its row pointers (mobilenet_v2's
    /// first layer 0.110 -> 0.145 ms).
    @inline(never)
    private static func tilePanelsShortRows<W: TileWidth>(_ width: W.Type, a: UnsafePointer<Float>, lda: Int, rowCount: Int,
                                                          depth: Int, segments: Int, segmentStride: Int, group: PanelGroup,
                                                          accumulate: Bool, activation: ActivationRange<Float>?,
                                                          residual: GEMMResidual?, c: UnsafeMutablePointer<Float>, ldc: Int,
                                                          seven: Bool) {
        @inline(__always) func rows(_ height: (some TileHeight).Type) {
            tilePanelsRows(a: a, lda: lda, rowCount: rowCount, depth: depth, segments: segments, segmentStride: segmentStride,
                           group: group, accumulate: accumulate, activation: activation, residual: residual, c: c,
                           ldc: ldc, width: W.self, height: height)
        }
        if seven { rows(SevenRows.self) } else { rows(FourRows.self) }
    }

    /// One tile of at most ``rowTile`` rows of ``tilePanels(_:a:lda:rowCount:depth:segments:segmentStride:group:accumulate:activation:residual:c:ldc:)``.
    /// The third panel's accumulators (`m`) and every use of them fold away for two panels.
    @inline(__always)
    private static func tilePanelsRows<W: TileWidth>(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                                                     segments: Int, segmentStride: Int, group: PanelGroup,
                                                     accumulate: Bool, activation: ActivationRange<Float>?,
                                                     residual: GEMMResidual?, c: UnsafeMutablePointer<Float>, ldc: Int,
                                                     width: W.Type, height: (some TileHeight).Type) {
        let three = W.panels > 2
        let (bias0, bias1, bias2) = (group.bias0, group.bias1, group.bias2)
        // The valid columns of the second panel and of the third.
        let columns1 = three ? panelWidth : group.lastColumns, columns2 = group.lastColumns
        // Named accumulators from the start: `loadPartialSums` needs its tuple in memory, so the
        // tuple is made only for later depth blocks. Made on every call, it was written to the
        // stack and read back, on a shallow layer a large part of the tile's time.
        var (l0, l1, l2, l3, l4, l5, l6, l7) = (bias0, bias0, bias0, bias0, bias0, bias0, bias0, bias0)
        var (r0, r1, r2, r3, r4, r5, r6, r7) = (bias1, bias1, bias1, bias1, bias1, bias1, bias1, bias1)
        var (m0, m1, m2, m3, m4, m5, m6, m7) = (bias2, bias2, bias2, bias2, bias2, bias2, bias2, bias2)
        if accumulate {
            var left = (l0, l1, l2, l3, l4, l5, l6, l7), right = (r0, r1, r2, r3, r4, r5, r6, r7)
            loadPartialSums(into: &left, rowCount: rowCount, c: c, ldc: ldc, columnCount: panelWidth)
            loadPartialSums(into: &right, rowCount: rowCount, c: c + panelWidth, ldc: ldc, columnCount: columns1)
            (l0, l1, l2, l3, l4, l5, l6, l7) = left
            (r0, r1, r2, r3, r4, r5, r6, r7) = right
            if three {
                var third = (m0, m1, m2, m3, m4, m5, m6, m7)
                loadPartialSums(into: &third, rowCount: rowCount, c: c + 2 &* panelWidth, ldc: ldc, columnCount: columns2)
                (m0, m1, m2, m3, m4, m5, m6, m7) = third
            }
        }
        let (a0, a1, a2, a3, a4, a5, a6, a7) = rowPointers(a, lda, rowCount)
        var raw0 = UnsafeRawPointer(group.panel0), raw1 = UnsafeRawPointer(group.panel1)
        var raw2 = UnsafeRawPointer(group.panel2)
        var offset = 0
        for _ in 0..<segments {
            for k in 0..<depth {
                // Transparent loads: in the three-panel tile the optimiser left `loadUnaligned`
                // a call.
                let b0 = loadVector(raw0 + k &* 64), b1 = loadVector(raw1 + k &* 64)
                let b2 = three ? loadVector(raw2 + k &* 64) : b1
                let i = offset &+ k
                var x = Vector(repeating: a0[i]); l0.addProduct(x, b0); r0.addProduct(x, b1)
                if three { m0.addProduct(x, b2) }
                x = Vector(repeating: a1[i]); l1.addProduct(x, b0); r1.addProduct(x, b1)
                if three { m1.addProduct(x, b2) }
                x = Vector(repeating: a2[i]); l2.addProduct(x, b0); r2.addProduct(x, b1)
                if three { m2.addProduct(x, b2) }
                x = Vector(repeating: a3[i]); l3.addProduct(x, b0); r3.addProduct(x, b1)
                if three { m3.addProduct(x, b2) }
                if height.rows > 4 {
                    x = Vector(repeating: a4[i]); l4.addProduct(x, b0); r4.addProduct(x, b1)
                    if three { m4.addProduct(x, b2) }
                    x = Vector(repeating: a5[i]); l5.addProduct(x, b0); r5.addProduct(x, b1)
                    if three { m5.addProduct(x, b2) }
                    x = Vector(repeating: a6[i]); l6.addProduct(x, b0); r6.addProduct(x, b1)
                    if three { m6.addProduct(x, b2) }
                }
                if height.rows > 7 {
                    x = Vector(repeating: a7[i]); l7.addProduct(x, b0); r7.addProduct(x, b1)
                    if three { m7.addProduct(x, b2) }
                }
            }
            raw0 += depth &* 64
            raw1 += depth &* 64
            raw2 += depth &* 64
            offset &+= segmentStride
        }
        // A whole tile of whole panels, clamped and without a residual (most tiles of most
        // layers) stores its rows straight; the rest go row by row through `storeRow`, which
        // checks each. With those checks on every row, a shallow layer (8 input channels) spent
        // a fifth of its time storing.
        if rowCount == height.rows, columns2 == panelWidth, residual == nil, let activation {
            let lo = Vector(repeating: activation.min), hi = Vector(repeating: activation.max)
            var row = UnsafeMutableRawPointer(c)
            @_transparent func put(_ l: Vector, _ r: Vector, _ m: Vector) {
                Vector.storeClamped(l, lo, hi, to: row)
                Vector.storeClamped(r, lo, hi, to: row + 64)
                if three { Vector.storeClamped(m, lo, hi, to: row + 128) }
                row += ldc &* 4
            }
            put(l0, r0, m0); put(l1, r1, m1); put(l2, r2, m2); put(l3, r3, m3)
            if height.rows > 4 { put(l4, r4, m4); put(l5, r5, m5); put(l6, r6, m6) }
            if height.rows > 7 { put(l7, r7, m7) }
            return
        }
        let residual1 = residual?.advanced(rows: 0, column: panelWidth)
        let residual2 = residual?.advanced(rows: 0, column: 2 &* panelWidth)
        @_transparent func store(_ i: Int, _ l: Vector, _ r: Vector, _ m: Vector) {
            storeRow(l, i, rowCount: rowCount, activation: activation, residual: residual, c: c, ldc: ldc,
                     columnCount: panelWidth)
            storeRow(r, i, rowCount: rowCount, activation: activation, residual: residual1, c: c + panelWidth,
                     ldc: ldc, columnCount: columns1)
            if three {
                storeRow(m, i, rowCount: rowCount, activation: activation, residual: residual2,
                         c: c + 2 &* panelWidth, ldc: ldc, columnCount: columns2)
            }
        }
        store(0, l0, r0, m0); store(1, l1, r1, m1); store(2, l2, r2, m2); store(3, l3, r3, m3)
        if height.rows > 4 { store(4, l4, r4, m4); store(5, l5, r5, m5); store(6, l6, r6, m6) }
        if height.rows > 7 { store(7, l7, r7, m7) }
    }

    /// `rowCount` rows (any number) by `columnCount` columns (at most 16) over one depth block,
    /// in tiles of ``rowTile`` rows, for a panel without a partner. Accumulators start from
    /// `bias`, or from the partial sums already in `c` when `accumulate`; the clamp is applied
    /// only with the last block. A tile's missing rows alias row 0 so the loop body stays
    /// branch-free; their results are discarded. At most 8 columns are summed in half vectors
    /// (see `GEMM+HalfPanel.swift`).
    ///
    /// The depth may come in `segments` pieces of `depth` steps each (a small-channel
    /// convolution's filter rows): piece `s` reads each row of `a` from `s * segmentStride`
    /// on, and the next `depth` steps of the panel (`tilePanels` likewise).
    @inline(never)
    static func tile(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                     segments: Int = 1, segmentStride: Int = 0,
                     panel: UnsafePointer<Float>, bias: Vector, accumulate: Bool,
                     activation: ActivationRange<Float>?, residual: GEMMResidual? = nil,
                     c: UnsafeMutablePointer<Float>, ldc: Int, columnCount: Int) {
        if columnCount <= panelWidth / 2 {
            tilePanel(a: a, lda: lda, rowCount: rowCount, depth: depth, segments: segments, segmentStride: segmentStride,
                      panel: panel, bias: bias.lowHalf, accumulate: accumulate, activation: activation,
                      residual: residual, c: c, ldc: ldc, columnCount: columnCount)
        } else {
            tilePanel(a: a, lda: lda, rowCount: rowCount, depth: depth, segments: segments, segmentStride: segmentStride,
                      panel: panel, bias: bias, accumulate: accumulate, activation: activation,
                      residual: residual, c: c, ldc: ldc, columnCount: columnCount)
        }
    }

    /// ``tile(a:lda:rowCount:depth:segments:segmentStride:panel:bias:accumulate:activation:residual:c:ldc:columnCount:)``
    /// with accumulators of type `V`: a whole panel, or its first half for at most 8 columns.
    /// Kept out of line, one copy per `V`, so that its loop keeps the row pointers in registers.
    @inline(never)
    private static func tilePanel<V: PanelVector>(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                                                  segments: Int, segmentStride: Int,
                                                  panel: UnsafePointer<Float>, bias: V, accumulate: Bool,
                                                  activation: ActivationRange<Float>?, residual: GEMMResidual?,
                                                  c: UnsafeMutablePointer<Float>, ldc: Int, columnCount: Int) {
        let tiling = RowTiling(rows: rowCount)
        var r = 0
        while r < rowCount {
            let height = tiling.height(at: r)
            if height == 8 {
                tilePanelRows(a: a + r &* lda, lda: lda, rowCount: tiling.rows(at: r, height: rowTile), depth: depth,
                              segments: segments, segmentStride: segmentStride, panel: panel, bias: bias,
                              accumulate: accumulate, activation: activation,
                              residual: residual?.advanced(rows: r, column: 0), c: c + r &* ldc, ldc: ldc,
                              columnCount: columnCount, height: EightRows.self)
            } else {
                tilePanelShortRows(a: a + r &* lda, lda: lda, rowCount: tiling.rows(at: r, height: height), depth: depth,
                                   segments: segments, segmentStride: segmentStride, panel: panel, bias: bias,
                                   accumulate: accumulate, activation: activation,
                                   residual: residual?.advanced(rows: r, column: 0), c: c + r &* ldc, ldc: ldc,
                                   columnCount: columnCount, seven: height == 7)
            }
            r &+= height
        }
    }

    /// A tile of 7 rows, or a last one of at most 4, of `tilePanel`, out of line for the reason
    /// given at `tilePanelsShortRows`.
    @inline(never)
    private static func tilePanelShortRows<V: PanelVector>(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                                                           segments: Int, segmentStride: Int,
                                                           panel: UnsafePointer<Float>, bias: V, accumulate: Bool,
                                                           activation: ActivationRange<Float>?, residual: GEMMResidual?,
                                                           c: UnsafeMutablePointer<Float>, ldc: Int, columnCount: Int,
                                                           seven: Bool) {
        @inline(__always) func rows(_ height: (some TileHeight).Type) {
            tilePanelRows(a: a, lda: lda, rowCount: rowCount, depth: depth, segments: segments, segmentStride: segmentStride,
                          panel: panel, bias: bias, accumulate: accumulate, activation: activation, residual: residual,
                          c: c, ldc: ldc, columnCount: columnCount, height: height)
        }
        if seven { rows(SevenRows.self) } else { rows(FourRows.self) }
    }

    /// One tile of at most ``rowTile`` rows of `tilePanel`.
    @inline(__always)
    private static func tilePanelRows<V: PanelVector>(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                                                      segments: Int, segmentStride: Int,
                                                      panel: UnsafePointer<Float>, bias: V, accumulate: Bool,
                                                      activation: ActivationRange<Float>?, residual: GEMMResidual?,
                                                      c: UnsafeMutablePointer<Float>, ldc: Int, columnCount: Int,
                                                      height: (some TileHeight).Type) {
        var (c0, c1, c2, c3, c4, c5, c6, c7) = (bias, bias, bias, bias, bias, bias, bias, bias)
        if accumulate {
            @_transparent func partial(_ i: Int) -> V {
                i < rowCount ? V.loadColumns(c + i &* ldc, count: columnCount) : bias
            }
            (c0, c1, c2, c3) = (partial(0), partial(1), partial(2), partial(3))
            if height.rows > 4 { (c4, c5, c6, c7) = (partial(4), partial(5), partial(6), partial(7)) }
        }
        let (a0, a1, a2, a3, a4, a5, a6, a7) = rowPointers(a, lda, rowCount)
        var raw = UnsafeRawPointer(panel)
        var offset = 0
        for _ in 0..<segments {
            for k in 0..<depth {
                // A half vector reads the first half of each 16-float step of the panel.
                let b = raw.loadUnaligned(fromByteOffset: k &* 64, as: V.self)
                let i = offset &+ k
                c0.addProduct(V(repeating: a0[i]), b)
                c1.addProduct(V(repeating: a1[i]), b)
                c2.addProduct(V(repeating: a2[i]), b)
                c3.addProduct(V(repeating: a3[i]), b)
                if height.rows > 4 {
                    c4.addProduct(V(repeating: a4[i]), b)
                    c5.addProduct(V(repeating: a5[i]), b)
                    c6.addProduct(V(repeating: a6[i]), b)
                }
                if height.rows > 7 { c7.addProduct(V(repeating: a7[i]), b) }
            }
            raw += depth &* 64
            offset &+= segmentStride
        }
        if rowCount == height.rows, columnCount == V.scalarCount, residual == nil, let activation {
            let lo = V(repeating: activation.min), hi = V(repeating: activation.max)
            var row = UnsafeMutableRawPointer(c)
            @_transparent func put(_ v: V) {
                V.storeClamped(v, lo, hi, to: row)
                row += ldc &* 4
            }
            put(c0); put(c1); put(c2); put(c3)
            if height.rows > 4 { put(c4); put(c5); put(c6) }
            if height.rows > 7 { put(c7) }
            return
        }
        @_transparent func store(_ i: Int, _ v: V) {
            V.storeRow(v, i, rowCount: rowCount, activation: activation, residual: residual, c: c, ldc: ldc,
                       columnCount: columnCount)
        }
        store(0, c0); store(1, c1); store(2, c2); store(3, c3)
        if height.rows > 4 { store(4, c4); store(5, c5); store(6, c6) }
        if height.rows > 7 { store(7, c7) }
    }

    /// The tile's row pointers; rows past `rowCount` alias row 0.
    @inline(__always)
    private static func rowPointers(_ a: UnsafePointer<Float>, _ lda: Int, _ rowCount: Int)
        -> (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>,
            UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) {
        (a,
         rowCount > 1 ? a + 1 * lda : a, rowCount > 2 ? a + 2 * lda : a, rowCount > 3 ? a + 3 * lda : a,
         rowCount > 4 ? a + 4 * lda : a, rowCount > 5 ? a + 5 * lda : a, rowCount > 6 ? a + 6 * lda : a,
         rowCount > 7 ? a + 7 * lda : a)
    }
}
#endif
