#if TFLITE_ISA_MODULE
import Kernels
#endif
#if TFLITE_VNNI
import X86Intrinsics

/// Int8 weights packed for ``Int8QuadGEMM``: output channels in blocks of 16, and the depth in
/// quads. For each quad `k ..< k + 4` a block stores, channel by channel, the four weights side
/// by side (`[quad][lane][4]`), so one 64-byte load gives what `vpdpbusd` multiplies with a
/// broadcast quad of input bytes. The depth is padded to a whole quad with zero weights, the
/// last block with zero channels. Packed once at prepare.
struct Int8QuadPackedWeights: Sendable {
    /// The length of one weight row (the dot-product depth).
    let depth: Int
    /// Output channels.
    let channels: Int
    /// `blockCount * quadCount * 64` packed weights.
    let values: [Int8]

    /// Depth quads: `depth` rounded up to a multiple of four, quartered.
    var quadCount: Int { (depth + 3) / 4 }
    /// Blocks of 16 output channels, the last possibly partial.
    var blockCount: Int { (channels + 15) / 16 }

    /// Packs `channels` weight rows of `depth` values each (`rows[c * depth + k]`).
    init(rows: UnsafePointer<Int8>, channels: Int, depth: Int) {
        self.depth = depth
        self.channels = channels
        let quads = (depth + 3) / 4
        let blocks = (channels + 15) / 16
        var packed = [Int8](repeating: 0, count: blocks * quads * 64)
        packed.withUnsafeMutableBytes { out in
            // A quad at a time (one 32-bit copy), then the last partial quad byte by byte.
            let base = out.baseAddress!, whole = depth / 4
            for c in 0..<channels {
                let row = UnsafeRawPointer(rows + c * depth)
                let first = c / 16 * quads * 64 + c % 16 * 4
                for q in 0..<whole {
                    base.storeBytes(of: row.loadUnaligned(fromByteOffset: 4 * q, as: UInt32.self),
                                    toByteOffset: first + q * 64, as: UInt32.self)
                }
                for k in (whole * 4)..<depth {
                    base.storeBytes(of: rows[c * depth + k], toByteOffset: first + whole * 64 + k % 4, as: Int8.self)
                }
            }
        }
        self.values = packed
    }
}

/// The int32 sums of a block of channels: all 16 (a zmm register), or the first 8 (a ymm
/// register) for a block of at most 8 channels (a layer of 8 output channels), whose
/// `vpdpbusd` a core that splits 512-bit instructions (AMD Zen 4) runs twice as fast as the
/// 16-lane one, half of which would multiply padding (mobilenet_v2_int8's 8-channel
/// projections 52/20/20 -> 47/16/16 us).
protocol QuadSums: SIMD where Scalar == Int32 {
    /// `vpdpbusd` of this width (see ``accumulatingQuadProducts(_:unsignedBytes:signedBytes:)``).
    static func accumulatingQuadProducts(_ acc: Self, unsignedBytes: Self, signedBytes: Self) -> Self
}

extension SIMD16: QuadSums where Scalar == Int32 {
    @inline(__always)
    static func accumulatingQuadProducts(_ acc: Self, unsignedBytes: Self, signedBytes: Self) -> Self {
        X86Intrinsics.accumulatingQuadProducts(acc, unsignedBytes: unsignedBytes, signedBytes: signedBytes)
    }
}

extension SIMD8: QuadSums where Scalar == Int32 {
    @inline(__always)
    static func accumulatingQuadProducts(_ acc: Self, unsignedBytes: Self, signedBytes: Self) -> Self {
        X86Intrinsics.accumulatingQuadProducts(acc, unsignedBytes: unsignedBytes, signedBytes: signedBytes)
    }
}

/// The int8 matrix product of the AVX-512 VNNI variant: int32 sums of rows of input bytes with
/// blocks of ``Int8QuadPackedWeights``, four depth steps per instruction.
///
/// `vpdpbusd` multiplies unsigned bytes by signed ones, so each broadcast quad of input bytes has
/// its sign bits flipped (`x ^ 0x80` reads int8 `x` as the uint8 `x + 128`); the sums then
/// carry `128 * sum(w)` per channel, which the caller folds into its bias with the input zero
/// point. Flipping in the kernel, one `vpxord` per broadcast, lets a pointwise layer read its
/// input in place. Each micro-kernel step broadcasts one quad of a row as a 32-bit lane and
/// multiplies it with a vector of 16 channels' weight quads: 64 products per instruction, twice
/// the pair products (`vpdpwssd`) of ``Int8GEMM``, and no widening of the inputs to int16. Every product and every
/// four-product sum fits int32 exactly, and the int32 sums wrap like the reference kernel's.
///
/// Tiles are 8 rows by two blocks (32 channels) of weights, or one block for the last.
enum Int8QuadGEMM {
    /// Rows per tile.
    static let tileRows = 8
    /// Blocks of channels per call of ``tileSums(a:lda:rowCount:quads:panel:panelStride:blocks:sums:)``.
    static let tileBlocks = 2

    /// The sums of at most ``tileRows`` rows of int8 values at `a` (`lda` bytes apart, `4 * quads` long)
    /// with `blocks` (1 or 2) consecutive blocks of packed weights, `panelStride` bytes apart,
    /// stored to `sums` as `[tileRows][16]` per block, the second block's `sumsBlockStride`
    /// bytes after the first's. Missing rows alias row 0 so the loop body stays branch-free;
    /// their sums are meaningless. A tile of at most four rows (the last of a 7x7 layer's 49
    /// pixels, say) takes the four-row kernels, doing half the work of a whole tile. A single
    /// block of at most 8 `channels` sums in 8-lane registers (see ``QuadSums``), leaving lanes
    /// 8 to 15 of its sums unwritten.
    @inline(__always)
    static func tileSums(a: UnsafePointer<Int8>, lda: Int, rowCount: Int, quads: Int,
                         panel: UnsafePointer<Int8>, panelStride: Int, blocks: Int, channels: Int,
                         sums: UnsafeMutableRawPointer, sumsBlockStride: Int) {
        let rows = TileRows(a, lda: lda, rowCount: rowCount)
        let signs = SIMD16<Int32>(repeating: Int32(bitPattern: 0x8080_8080))
        @inline(__always) func multiply<Height: TileHeight>(_ height: Height.Type) {
            if blocks == 1 && channels <= 8 {
                blockSums(rows, quads: quads, panel: UnsafeRawPointer(panel), signs: signs.lowHalf, sums: sums, height: height)
            } else if blocks == 2 {
                blockPairSums(rows, quads: quads, panel0: UnsafeRawPointer(panel), panel1: UnsafeRawPointer(panel + panelStride),
                              signs: signs, sums: sums, sumsBlockStride: sumsBlockStride, height: height)
            } else {
                blockSums(rows, quads: quads, panel: UnsafeRawPointer(panel), signs: signs, sums: sums, height: height)
            }
        }
        if rowCount > 4 { multiply(EightRows.self) } else { multiply(FourRows.self) }
    }

    /// The eight row pointers of a tile; rows at or past `rowCount` alias row 0.
    struct TileRows {
        let r0, r1, r2, r3, r4, r5, r6, r7: UnsafeRawPointer

        @inline(__always)
        init(_ a: UnsafePointer<Int8>, lda: Int, rowCount: Int) {
            @inline(__always) func row(_ i: Int) -> UnsafeRawPointer { UnsafeRawPointer(i < rowCount ? a + i * lda : a) }
            (r0, r1, r2, r3, r4, r5, r6, r7) = (row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))
        }
    }

    /// The quad at byte offset `at` of `row` in every lane, as offset bytes: `signs` holds the
    /// sign bit of every byte. It is an argument of the out-of-line kernels so that the flip
    /// stays one vector `vpxord` after a broadcast load: with the constant in sight, LLVM moved
    /// it before the broadcast, into a scalar load, `xor` and broadcast from a general register.
    @inline(__always)
    static func broadcastQuad<V: QuadSums>(_ row: UnsafeRawPointer, _ at: Int, _ signs: V) -> V {
        V(repeating: row.loadUnaligned(fromByteOffset: at, as: Int32.self)) ^ signs
    }

    /// Two blocks at once: 16 `vpdpbusd` per depth quad for two weight loads and eight
    /// broadcasts (half as many of each for four rows). `sums` gets the first block's rows of
    /// sums, `sumsBlockStride` bytes further the second's.
    @inline(never)
    static func blockPairSums<Height: TileHeight>(_ t: TileRows, quads: Int, panel0: UnsafeRawPointer, panel1: UnsafeRawPointer,
                                                      signs: SIMD16<Int32>, sums: UnsafeMutableRawPointer, sumsBlockStride: Int,
                                                      height: Height.Type) {
        let zero = SIMD16<Int32>()
        var (l0, l1, l2, l3, l4, l5, l6, l7) = (zero, zero, zero, zero, zero, zero, zero, zero)
        var (r0, r1, r2, r3, r4, r5, r6, r7) = (zero, zero, zero, zero, zero, zero, zero, zero)
        for k in 0..<quads {
            let w0 = panel0.loadUnaligned(fromByteOffset: k &* 64, as: SIMD16<Int32>.self)
            let w1 = panel1.loadUnaligned(fromByteOffset: k &* 64, as: SIMD16<Int32>.self)
            let at = 4 &* k
            @inline(__always) func step(_ l: inout SIMD16<Int32>, _ r: inout SIMD16<Int32>, _ row: UnsafeRawPointer) {
                let x = broadcastQuad(row, at, signs)
                l = accumulatingQuadProducts(l, unsignedBytes: x, signedBytes: w0)
                r = accumulatingQuadProducts(r, unsignedBytes: x, signedBytes: w1)
            }
            step(&l0, &r0, t.r0); step(&l1, &r1, t.r1); step(&l2, &r2, t.r2); step(&l3, &r3, t.r3)
            if Height.rows > 4 { step(&l4, &r4, t.r4); step(&l5, &r5, t.r5); step(&l6, &r6, t.r6); step(&l7, &r7, t.r7) }
        }
        @inline(__always) func put(_ c: SIMD16<Int32>, _ slot: Int) {
            sums.storeBytes(of: c, toByteOffset: slot * 64, as: SIMD16<Int32>.self)
        }
        put(l0, 0); put(l1, 1); put(l2, 2); put(l3, 3)
        if Height.rows > 4 { put(l4, 4); put(l5, 5); put(l6, 6); put(l7, 7) }
        let second = sums + sumsBlockStride
        @inline(__always) func putSecond(_ c: SIMD16<Int32>, _ slot: Int) {
            second.storeBytes(of: c, toByteOffset: slot * 64, as: SIMD16<Int32>.self)
        }
        putSecond(r0, 0); putSecond(r1, 1); putSecond(r2, 2); putSecond(r3, 3)
        if Height.rows > 4 { putSecond(r4, 4); putSecond(r5, 5); putSecond(r6, 6); putSecond(r7, 7) }
    }

    /// One block: eight `vpdpbusd` per depth quad (four for four rows), on the block's 16
    /// channels or, with `V` of 8 lanes, its first 8. `sums` gets the rows of sums.
    @inline(never)
    static func blockSums<V: QuadSums, Height: TileHeight>(_ t: TileRows, quads: Int, panel: UnsafeRawPointer, signs: V,
                                                           sums: UnsafeMutableRawPointer, height: Height.Type) {
        let zero = V()
        var (c0, c1, c2, c3, c4, c5, c6, c7) = (zero, zero, zero, zero, zero, zero, zero, zero)
        for k in 0..<quads {
            let w = panel.loadUnaligned(fromByteOffset: k &* 64, as: V.self)
            let at = 4 &* k
            @inline(__always) func step(_ c: inout V, _ row: UnsafeRawPointer) {
                c = V.accumulatingQuadProducts(c, unsignedBytes: broadcastQuad(row, at, signs), signedBytes: w)
            }
            step(&c0, t.r0); step(&c1, t.r1); step(&c2, t.r2); step(&c3, t.r3)
            if Height.rows > 4 { step(&c4, t.r4); step(&c5, t.r5); step(&c6, t.r6); step(&c7, t.r7) }
        }
        @inline(__always) func put(_ c: V, _ slot: Int) {
            sums.storeBytes(of: c, toByteOffset: slot * 64, as: V.self)
        }
        put(c0, 0); put(c1, 1); put(c2, 2); put(c3, 3)
        if Height.rows > 4 { put(c4, 4); put(c5, 5); put(c6, 6); put(c7, 7) }
    }
}
#endif
