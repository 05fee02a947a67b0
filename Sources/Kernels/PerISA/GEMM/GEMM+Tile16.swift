#if TFLITE_ISA_MODULE
import Kernels
#endif
// The AVX-512 micro-kernels (the AVX-512 variants, TFLITE_AVX512): tiles of 8 rows (7 where
// that splits a run exactly, see RowTiling) by one to three 16-float panels in SIMD16<Float>
// accumulators (see GEMM; a panel of at most 8 columns, alone or last, in SIMD8<Float>, see
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
    /// block: ``tilePanels(_:last:a:lda:rowCount:depth:segments:segmentStride:group:accumulate:activation:residual:c:ldc:)``
    /// for two or three panels, ``tile(a:lda:rowCount:depth:segments:segmentStride:panel:bias:accumulate:activation:residual:c:ldc:columnCount:)``
    /// for one.
    @inline(__always)
    static func tileGroup(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                          segments: Int = 1, segmentStride: Int = 0, group: PanelGroup,
                          accumulate: Bool, activation: ActivationRange<Float>?, residual: GEMMResidual? = nil,
                          c: UnsafeMutablePointer<Float>, ldc: Int) {
        @inline(__always) func panels<W: TileWidth>(_ width: W.Type) {
            if group.lastColumns <= panelWidth / 2 {
                tilePanels(W.self, last: SIMD8<Float>.self, a: a, lda: lda, rowCount: rowCount, depth: depth, segments: segments,
                           segmentStride: segmentStride, group: group, accumulate: accumulate, activation: activation,
                           residual: residual, c: c, ldc: ldc)
            } else {
                tilePanels(W.self, last: Vector.self, a: a, lda: lda, rowCount: rowCount, depth: depth, segments: segments,
                           segmentStride: segmentStride, group: group, accumulate: accumulate, activation: activation,
                           residual: residual, c: c, ldc: ldc)
            }
        }
        switch group.count {
        case 3: panels(ThreePanels.self)
        case 2: panels(TwoPanels.self)
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
    /// channels took 10% less time. Every panel of `group` but its last is full; the last is
    /// summed in `Last` (a half vector when it has at most 8 columns). Kept out of line, like
    /// `tile`: compiled on its own, the loop keeps its eight row pointers in registers, where
    /// inlined into the blocking loops it spilled them and reloaded one per multiply-add.
    @inline(never)
    static func tilePanels<W: TileWidth, Last: PanelVector>(_ width: W.Type, last: Last.Type, a: UnsafePointer<Float>, lda: Int,
                                                            rowCount: Int, depth: Int, segments: Int, segmentStride: Int,
                                                            group: PanelGroup, accumulate: Bool,
                                                            activation: ActivationRange<Float>?, residual: GEMMResidual?,
                                                            c: UnsafeMutablePointer<Float>, ldc: Int) {
        let tiling = RowTiling(rows: rowCount)
        var r = 0
        while r < rowCount {
            let height = tiling.height(at: r)
            if height == 8 {
                tilePanelsRows(a: a + r &* lda, lda: lda, rowCount: tiling.rows(at: r, height: rowTile), depth: depth,
                               segments: segments, segmentStride: segmentStride, group: group, accumulate: accumulate,
                               activation: activation, residual: residual?.advanced(rows: r, column: 0),
                               c: c + r &* ldc, ldc: ldc, width: W.self, last: Last.self, height: EightRows.self)
            } else {
                tilePanelsShortRows(W.self, last: Last.self, a: a + r &* lda, lda: lda, rowCount: tiling.rows(at: r, height: height),
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
    private static func tilePanelsShortRows<W: TileWidth, Last: PanelVector>(_ width: W.Type, last: Last.Type,
                                                                             a: UnsafePointer<Float>, lda: Int, rowCount: Int,
                                                                             depth: Int, segments: Int, segmentStride: Int,
                                                                             group: PanelGroup, accumulate: Bool,
                                                                             activation: ActivationRange<Float>?,
                                                                             residual: GEMMResidual?, c: UnsafeMutablePointer<Float>,
                                                                             ldc: Int, seven: Bool) {
        @inline(__always) func rows(_ height: (some TileHeight).Type) {
            tilePanelsRows(a: a, lda: lda, rowCount: rowCount, depth: depth, segments: segments, segmentStride: segmentStride,
                           group: group, accumulate: accumulate, activation: activation, residual: residual, c: c,
                           ldc: ldc, width: W.self, last: Last.self, height: height)
        }
        if seven { rows(SevenRows.self) } else { rows(FourRows.self) }
    }

    /// One tile of at most ``rowTile`` rows of ``tilePanels(_:last:a:lda:rowCount:depth:segments:segmentStride:group:accumulate:activation:residual:c:ldc:)``.
    /// The last panel's accumulators are `Last`: half vectors when it has at most 8 valid
    /// columns (a layer of 24, 40 or 18 output channels), which on cores that split 512-bit
    /// multiply-adds in two (AMD Zen 4) costs half a whole panel, and elsewhere no more: the
    /// broadcast of each row value is shared, its low half read as a 256-bit register.
    @inline(__always)
    private static func tilePanelsRows<W: TileWidth, Last: PanelVector>(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                                                                        segments: Int, segmentStride: Int, group: PanelGroup,
                                                                        accumulate: Bool, activation: ActivationRange<Float>?,
                                                                        residual: GEMMResidual?, c: UnsafeMutablePointer<Float>, ldc: Int,
                                                                        width: W.Type, last: Last.Type, height: (some TileHeight).Type) {
        // The second panel is the last of two; of three it is whole and the third is the last.
        if W.panels > 2 {
            tilePanelsRows(Vector.self, Last.self, a: a, lda: lda, rowCount: rowCount, depth: depth, segments: segments,
                           segmentStride: segmentStride, group: group, accumulate: accumulate, activation: activation,
                           residual: residual, c: c, ldc: ldc, three: true, height: height)
        } else {
            tilePanelsRows(Last.self, Vector.self, a: a, lda: lda, rowCount: rowCount, depth: depth, segments: segments,
                           segmentStride: segmentStride, group: group, accumulate: accumulate, activation: activation,
                           residual: residual, c: c, ldc: ldc, three: false, height: height)
        }
    }

    /// ``tilePanelsRows(a:lda:rowCount:depth:segments:segmentStride:group:accumulate:activation:residual:c:ldc:width:last:height:)``
    /// with the second panel's accumulators of type `R` and the third's of type `M`. The third
    /// panel's accumulators (`m`) and every use of them fold away for two panels.
    @inline(__always)
    private static func tilePanelsRows<R: PanelVector, M: PanelVector>(_ second: R.Type, _ third: M.Type,
                                                                       a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                                                                       segments: Int, segmentStride: Int, group: PanelGroup,
                                                                       accumulate: Bool, activation: ActivationRange<Float>?,
                                                                       residual: GEMMResidual?, c: UnsafeMutablePointer<Float>,
                                                                       ldc: Int, three: Bool, height: (some TileHeight).Type) {
        let (bias0, bias1, bias2) = (group.bias0, R.part(group.bias1), M.part(group.bias2))
        // The valid columns of the second panel and of the third.
        let columns1 = three ? panelWidth : group.lastColumns, columns2 = group.lastColumns
        var (l0, l1, l2, l3, l4, l5, l6, l7) = (bias0, bias0, bias0, bias0, bias0, bias0, bias0, bias0)
        var (r0, r1, r2, r3, r4, r5, r6, r7) = (bias1, bias1, bias1, bias1, bias1, bias1, bias1, bias1)
        var (m0, m1, m2, m3, m4, m5, m6, m7) = (bias2, bias2, bias2, bias2, bias2, bias2, bias2, bias2)
        if accumulate {
            // Row by row into the named accumulators, each panel in its own vector type
            // (`loadPartialSums` fills a tuple of whole vectors).
            @_transparent func partials(_ i: Int) -> (Vector, R, M) {
                (Vector.partialSums(row: i, rowCount: rowCount, c: c, ldc: ldc, count: panelWidth, otherwise: bias0),
                 R.partialSums(row: i, rowCount: rowCount, c: c + panelWidth, ldc: ldc, count: columns1, otherwise: bias1),
                 three ? M.partialSums(row: i, rowCount: rowCount, c: c + 2 &* panelWidth, ldc: ldc, count: columns2,
                                       otherwise: bias2) : bias2)
            }
            (l0, r0, m0) = partials(0); (l1, r1, m1) = partials(1); (l2, r2, m2) = partials(2); (l3, r3, m3) = partials(3)
            if height.rows > 4 {
                (l4, r4, m4) = partials(4); (l5, r5, m5) = partials(5); (l6, r6, m6) = partials(6); (l7, r7, m7) = partials(7)
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
                let b0 = loadVector(raw0 + k &* 64), b1 = R.loadPanelStep(raw1 + k &* 64)
                let b2 = three ? M.loadPanelStep(raw2 + k &* 64) : bias2
                let i = offset &+ k
                @_transparent func step(_ l: inout Vector, _ r: inout R, _ m: inout M, _ row: UnsafePointer<Float>) {
                    let x = Vector(repeating: row[i])
                    l.addProduct(x, b0)
                    r.addProduct(R.part(x), b1)
                    if three { m.addProduct(M.part(x), b2) }
                }
                step(&l0, &r0, &m0, a0); step(&l1, &r1, &m1, a1); step(&l2, &r2, &m2, a2); step(&l3, &r3, &m3, a3)
                if height.rows > 4 { step(&l4, &r4, &m4, a4); step(&l5, &r5, &m5, a5); step(&l6, &r6, &m6, a6) }
                if height.rows > 7 { step(&l7, &r7, &m7, a7) }
            }
            raw0 += depth &* 64
            raw1 += depth &* 64
            raw2 += depth &* 64
            offset &+= segmentStride
        }
        // A whole tile of whole vectors, clamped and without a residual (most tiles of most
        // layers) stores its rows straight; the rest go row by row through `storeRow`, which
        // checks each. With those checks on every row, a shallow layer (8 input channels) spent
        // a fifth of its time storing.
        let lastWidth = three ? M.scalarCount : R.scalarCount
        if rowCount == height.rows, columns2 == lastWidth, residual == nil, let activation {
            let lo = Vector(repeating: activation.min), hi = Vector(repeating: activation.max)
            let (loR, hiR, loM, hiM) = (R.part(lo), R.part(hi), M.part(lo), M.part(hi))
            var row = UnsafeMutableRawPointer(c)
            @_transparent func put(_ l: Vector, _ r: R, _ m: M) {
                Vector.storeClamped(l, lo, hi, to: row)
                R.storeClamped(r, loR, hiR, to: row + 64)
                if three { M.storeClamped(m, loM, hiM, to: row + 128) }
                row += ldc &* 4
            }
            put(l0, r0, m0); put(l1, r1, m1); put(l2, r2, m2); put(l3, r3, m3)
            if height.rows > 4 { put(l4, r4, m4); put(l5, r5, m5); put(l6, r6, m6) }
            if height.rows > 7 { put(l7, r7, m7) }
            return
        }
        let residual1 = residual?.advanced(rows: 0, column: panelWidth)
        let residual2 = residual?.advanced(rows: 0, column: 2 &* panelWidth)
        @_transparent func store(_ i: Int, _ l: Vector, _ r: R, _ m: M) {
            storeRow(l, i, rowCount: rowCount, activation: activation, residual: residual, c: c, ldc: ldc,
                     columnCount: panelWidth)
            R.storeRow(r, i, rowCount: rowCount, activation: activation, residual: residual1, c: c + panelWidth,
                       ldc: ldc, columnCount: columns1)
            if three {
                M.storeRow(m, i, rowCount: rowCount, activation: activation, residual: residual2,
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
                V.partialSums(row: i, rowCount: rowCount, c: c, ldc: ldc, count: columnCount, otherwise: bias)
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
