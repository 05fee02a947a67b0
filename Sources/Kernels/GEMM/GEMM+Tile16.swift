// The AVX-512 micro-kernels, compiled with -DTFLITE_AVX512: 8 rows by one or two 16-float
// panels in SIMD16<Float> accumulators (see GEMM).
#if TFLITE_AVX512
extension GEMM {
    /// The accumulator vector: 16 floats, one zmm register.
    public typealias Vector = SIMD16<Float>
    /// Rows of `A` per micro-kernel tile.
    public static let rowTile = 8

    /// One `rowCount x 32` tile over two adjacent panels and one depth block: 16 accumulators,
    /// two panel loads and eight broadcasts of `A` per depth step for 16 fused multiply-adds,
    /// so the FMA units, not the loads, set the pace (a 12 x 16 tile needed 13 loads for 12
    /// FMAs). `columnCount1` counts the valid columns of the second panel (the first is always
    /// full); see ``tile(a:lda:rowCount:depth:panel:bias:accumulate:activation:c:ldc:columnCount:)``
    /// for the rest. Kept out of line, like `tile`: compiled on its own, the loop keeps its
    /// eight row pointers in registers, where inlined into the blocking loops it spilled them
    /// and reloaded one per multiply-add.
    @inline(never)
    static func tilePair(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                         segments: Int = 1, segmentStride: Int = 0,
                         panel0: UnsafePointer<Float>, panel1: UnsafePointer<Float>, bias0: Vector, bias1: Vector,
                         accumulate: Bool, activation: ActivationRange<Float>?, residual: GEMMResidual? = nil,
                         c: UnsafeMutablePointer<Float>, ldc: Int, columnCount1: Int) {
        var left = (bias0, bias0, bias0, bias0, bias0, bias0, bias0, bias0)
        var right = (bias1, bias1, bias1, bias1, bias1, bias1, bias1, bias1)
        if accumulate {
            loadPartialSums(into: &left, rowCount: rowCount, c: c, ldc: ldc, columnCount: panelWidth)
            loadPartialSums(into: &right, rowCount: rowCount, c: c + panelWidth, ldc: ldc, columnCount: columnCount1)
        }
        let (a0, a1, a2, a3, a4, a5, a6, a7) = rowPointers(a, lda, rowCount)
        var (l0, l1, l2, l3, l4, l5, l6, l7) = left
        var (r0, r1, r2, r3, r4, r5, r6, r7) = right
        var raw0 = UnsafeRawPointer(panel0), raw1 = UnsafeRawPointer(panel1)
        var offset = 0
        for _ in 0..<segments {
            for k in 0..<depth {
                let b0 = raw0.loadUnaligned(fromByteOffset: k &* 64, as: Vector.self)
                let b1 = raw1.loadUnaligned(fromByteOffset: k &* 64, as: Vector.self)
                let i = offset &+ k
                var x = Vector(repeating: a0[i]); l0.addProduct(x, b0); r0.addProduct(x, b1)
                x = Vector(repeating: a1[i]); l1.addProduct(x, b0); r1.addProduct(x, b1)
                x = Vector(repeating: a2[i]); l2.addProduct(x, b0); r2.addProduct(x, b1)
                x = Vector(repeating: a3[i]); l3.addProduct(x, b0); r3.addProduct(x, b1)
                x = Vector(repeating: a4[i]); l4.addProduct(x, b0); r4.addProduct(x, b1)
                x = Vector(repeating: a5[i]); l5.addProduct(x, b0); r5.addProduct(x, b1)
                x = Vector(repeating: a6[i]); l6.addProduct(x, b0); r6.addProduct(x, b1)
                x = Vector(repeating: a7[i]); l7.addProduct(x, b0); r7.addProduct(x, b1)
            }
            raw0 += depth &* 64
            raw1 += depth &* 64
            offset &+= segmentStride
        }
        storeTile((l0, l1, l2, l3, l4, l5, l6, l7), rowCount: rowCount, activation: activation,
                  residual: residual, c: c, ldc: ldc, columnCount: panelWidth)
        storeTile((r0, r1, r2, r3, r4, r5, r6, r7), rowCount: rowCount, activation: activation,
                  residual: residual?.advanced(rows: 0, column: panelWidth), c: c + panelWidth, ldc: ldc,
                  columnCount: columnCount1)
    }

    /// One `rowCount x columnCount` tile (at most 8 x 16) over one depth block, for a panel
    /// without a partner. Accumulators start from `bias`, or from the partial sums already in
    /// `c` when `accumulate`; the clamp is applied only with the last block. Missing rows alias
    /// row 0 so the loop body stays branch-free; their results are discarded.
    ///
    /// The depth may come in `segments` pieces of `depth` steps each (a small-channel
    /// convolution's filter rows): piece `s` reads each row of `a` from `s * segmentStride`
    /// on, and the next `depth` steps of the panel (`tilePair` likewise).
    @inline(never)
    static func tile(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                     segments: Int = 1, segmentStride: Int = 0,
                     panel: UnsafePointer<Float>, bias: Vector, accumulate: Bool,
                     activation: ActivationRange<Float>?, residual: GEMMResidual? = nil,
                     c: UnsafeMutablePointer<Float>, ldc: Int, columnCount: Int) {
        var start = (bias, bias, bias, bias, bias, bias, bias, bias)
        if accumulate { loadPartialSums(into: &start, rowCount: rowCount, c: c, ldc: ldc, columnCount: columnCount) }
        let (a0, a1, a2, a3, a4, a5, a6, a7) = rowPointers(a, lda, rowCount)
        var (c0, c1, c2, c3, c4, c5, c6, c7) = start
        var raw = UnsafeRawPointer(panel)
        var offset = 0
        for _ in 0..<segments {
            for k in 0..<depth {
                let b = raw.loadUnaligned(fromByteOffset: k &* 64, as: Vector.self)
                let i = offset &+ k
                c0.addProduct(Vector(repeating: a0[i]), b)
                c1.addProduct(Vector(repeating: a1[i]), b)
                c2.addProduct(Vector(repeating: a2[i]), b)
                c3.addProduct(Vector(repeating: a3[i]), b)
                c4.addProduct(Vector(repeating: a4[i]), b)
                c5.addProduct(Vector(repeating: a5[i]), b)
                c6.addProduct(Vector(repeating: a6[i]), b)
                c7.addProduct(Vector(repeating: a7[i]), b)
            }
            raw += depth &* 64
            offset &+= segmentStride
        }
        storeTile((c0, c1, c2, c3, c4, c5, c6, c7), rowCount: rowCount, activation: activation,
                  residual: residual, c: c, ldc: ldc, columnCount: columnCount)
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
