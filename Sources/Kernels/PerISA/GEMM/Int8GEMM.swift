#if TFLITE_ISA_MODULE
import Kernels
#endif
/// Int8 weights packed for ``Int8GEMM``: output channels in blocks of ``int8LaneCount``, and
/// the depth in pairs. For each pair `(k, k + 1)` a block stores, channel by channel, the two
/// weights side by side as int16 (`[pair][lane][2]`), so one vector load gives what a
/// pair-product instruction (`pmaddwd`, `vpdpwssd`) multiplies with a broadcast pair of input
/// values. An odd depth is padded with a zero weight; the last block with zero channels.
/// Packed once at prepare.
struct Int8PackedWeights: Sendable {
    /// The length of one weight row (the dot-product depth).
    let depth: Int
    /// Output channels.
    let channels: Int
    /// `blockCount * pairCount * int8LaneCount * 2` packed weights.
    let values: [Int16]

    /// Depth pairs: `depth` rounded up to even, halved.
    var pairCount: Int { (depth + 1) / 2 }
    /// Blocks of ``int8LaneCount`` output channels, the last possibly partial.
    var blockCount: Int { (channels + int8LaneCount - 1) / int8LaneCount }

    /// Packs `channels` weight rows of `depth` values each (`rows[c * depth + k]`).
    init(rows: UnsafePointer<Int8>, channels: Int, depth: Int) {
        self.depth = depth
        self.channels = channels
        let width = int8LaneCount, pairs = (depth + 1) / 2
        let blocks = (channels + width - 1) / width
        var packed = [Int16](repeating: 0, count: blocks * pairs * width * 2)
        packed.withUnsafeMutableBufferPointer { out in
            // Through pointers, each pair's offset advanced by a step: index arithmetic per
            // weight made packing a large part of preparing a model.
            let base = out.baseAddress!
            for c in 0..<channels {
                let row = rows + c * depth
                var at = base + (c / width * pairs * width + c % width) * 2
                var k = 0
                while k + 2 <= depth {
                    at[0] = Int16(row[k])
                    at[1] = Int16(row[k + 1])
                    at += width * 2
                    k += 2
                }
                if k < depth { at[0] = Int16(row[k]) }
            }
        }
        self.values = packed
    }
}

/// The int8 matrix product behind the optimised CONV_2D: int32 sums of rows of int8 values
/// (already widened to int16) with blocks of ``Int8PackedWeights``.
///
/// The micro-kernel multiplies two depth steps at once: it broadcasts a pair of input values
/// as one 32-bit lane and multiplies it with a vector of weight pairs, each int32 lane taking
/// the sum of its two int16 products (see `pairProducts`). That is one `pmaddwd` per
/// eight products on plain SSE2 and one `vpdpwssd` (multiply and accumulate) per 32 with
/// AVX-512 VNNI, against one float multiply-add per lane for the float GEMM. Every product of
/// int8 values and every pair sum fits int16 x int16 -> int32 exactly, and the int32 sums wrap
/// like the reference kernel's.
///
/// The tile depends on the variant, like the float GEMM's: 12 rows x 16
/// channels with AVX-512 (`Int8GEMM+Tile16.swift`), 6 x 8 otherwise (`Int8GEMM+Tile8.swift`).
/// Rows gathered for a tile (im2col) are multiplied by `tileSums`: with AVX-512, 8 rows by
/// two blocks at once; in the baseline and AVX2 variants, 6 rows by one block, reading each pair stored
/// ``pairCopies`` times (``splatPairs(_:pairs:into:)``).
enum Int8GEMM {
    /// Writes the `pairs` int16 pairs of `row` to `destination`, each ``pairCopies`` times
    /// (16 bytes per pair in the baseline and AVX2 variants).
    @inline(__always)
    static func splatPairs(_ row: UnsafePointer<Int16>, pairs: Int, into destination: UnsafeMutablePointer<Int16>) {
        let source = UnsafeRawPointer(row), out = UnsafeMutableRawPointer(destination)
        var k = 0
        if pairCopies == 4 {
            // Four pairs at a time: one load, a lane splat (`pshufd`) and a store per pair,
            // where pair by pair took four scalar stores each.
            while k + 4 <= pairs {
                let v = source.loadUnaligned(fromByteOffset: 4 * k, as: SIMD4<Int32>.self)
                out.storeBytes(of: SIMD4(repeating: v[0]), toByteOffset: k * 16, as: SIMD4<Int32>.self)
                out.storeBytes(of: SIMD4(repeating: v[1]), toByteOffset: k * 16 + 16, as: SIMD4<Int32>.self)
                out.storeBytes(of: SIMD4(repeating: v[2]), toByteOffset: k * 16 + 32, as: SIMD4<Int32>.self)
                out.storeBytes(of: SIMD4(repeating: v[3]), toByteOffset: k * 16 + 48, as: SIMD4<Int32>.self)
                k += 4
            }
        }
        while k < pairs {
            let pair = source.loadUnaligned(fromByteOffset: 4 * k, as: Int32.self)
            for copy in 0..<pairCopies { out.storeBytes(of: pair, toByteOffset: (k * pairCopies + copy) * 4, as: Int32.self) }
            k += 1
        }
    }

    /// Row `i` of a tile of int16 rows `lda` values apart from `a`, or row 0 when `i` is not
    /// below `rowCount`: the kernels alias missing rows to row 0 so their loop bodies stay
    /// branch-free, and discard those rows' sums.
    @inline(__always)
    static func tileRow(_ a: UnsafePointer<Int16>, _ i: Int, lda: Int, rowCount: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(i < rowCount ? a + i * lda : a)
    }

    /// The depth loop of `blockSums`, which sums up to ``rowTile`` rows of int16 values with one
    /// block of packed weights: calls `step` with each vector of weight pairs of `panel` in
    /// turn and the byte offset of the matching input pair in every row.
    ///
    /// The reduction may come in `segments` pieces of `pairs` pairs each (a small-channel
    /// convolution's filter rows): piece `s` reads each row from `s * segmentStride` int16
    /// values on, and the next `pairs` pairs of the panel.
    @inline(__always)
    static func forEachPanelPair(pairs: Int, segments: Int, segmentStride: Int, panel: UnsafePointer<Int16>,
                                 _ step: (_ weights: Int16PairLanes, _ byteOffset: Int) -> Void) {
        let vectorBytes = MemoryLayout<Int16PairLanes>.size
        var raw = UnsafeRawPointer(panel)
        var offset = 0
        for _ in 0..<segments {
            for k in 0..<pairs {
                step(raw.loadUnaligned(fromByteOffset: k &* vectorBytes, as: Int16PairLanes.self), offset &+ 4 &* k)
            }
            raw += pairs &* vectorBytes
            offset &+= 2 &* segmentStride
        }
    }

    /// Converts `count` int8 values to int16 at `destination`, 32 at a time (one `vpmovsxbw`
    /// with AVX-512, four unpack-and-shift pairs on SSE2): at 8 a time, the loop's overhead
    /// made this conversion more than half of building the depthwise kernel's pair rows.
    @inline(__always)
    static func convert(_ source: UnsafePointer<Int8>, count: Int, to destination: UnsafeMutablePointer<Int16>) {
        var i = 0
        let raw = UnsafeRawPointer(source), out = UnsafeMutableRawPointer(destination)
        while i &+ 32 <= count {
            out.storeBytes(of: int8AsInt16(raw.loadUnaligned(fromByteOffset: i, as: SIMD32<Int8>.self)),
                           toByteOffset: i &* 2, as: SIMD32<Int16>.self)
            i &+= 32
        }
        while i &+ 8 <= count {
            out.storeBytes(of: int8AsInt16(raw.loadUnaligned(fromByteOffset: i, as: SIMD8<Int8>.self)),
                           toByteOffset: i &* 2, as: SIMD8<Int16>.self)
            i &+= 8
        }
        while i < count {
            destination[i] = Int16(source[i])
            i &+= 1
        }
    }
}
