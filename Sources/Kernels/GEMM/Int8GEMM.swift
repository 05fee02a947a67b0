/// Int8 weights packed for ``Int8GEMM``: output channels in blocks of ``int8LaneCount``, each
/// block stored depth-major (`[depth][lanes]`), so one vector load gives the weights of every
/// channel of the block for one depth index. The last block is padded with zero weights.
/// Packed once at prepare.
///
/// The micro-kernel multiplies in float (int8 products summed in float lanes are exact, see
/// `exactFloatAccumulatorBias`). The AVX-512 tile keeps the weights as int8 and converts each
/// vector as it loads it (two cheap instructions beside twelve multiply-adds), which reads a
/// quarter of the bytes; the portable tile, where that conversion costs several SSE2
/// instructions, stores them as floats.
public struct Int8PackedWeights: Sendable {
    /// The length of one weight row (the dot-product depth).
    public let depth: Int
    /// Output channels.
    public let channels: Int
    /// `blockCount * depth * int8LaneCount` packed weights.
    let values: [Int8GEMM.Weight]

    /// Blocks of ``int8LaneCount`` output channels, the last possibly partial.
    public var blockCount: Int { (channels + int8LaneCount - 1) / int8LaneCount }

    /// Packs `channels` weight rows of `depth` values each (`rows[c * depth + k]`).
    public init(rows: UnsafePointer<Int8>, channels: Int, depth: Int) {
        self.depth = depth
        self.channels = channels
        let width = int8LaneCount
        let blocks = (channels + width - 1) / width
        var packed = [Int8GEMM.Weight](repeating: 0, count: blocks * depth * width)
        packed.withUnsafeMutableBufferPointer { out in
            for c in 0..<channels {
                let block = c / width, lane = c % width
                for k in 0..<depth {
                    out[(block * depth + k) * width + lane] = Int8GEMM.Weight(rows[c * depth + k])
                }
            }
        }
        self.values = packed
    }
}

/// The int8 matrix product behind the optimised CONV_2D: int32 sums of rows of int8 values
/// (already converted to float) with blocks of ``Int8PackedWeights``, computed exactly in float
/// multiply-add lanes. The micro-kernel tile is chosen per instruction set at build time like
/// the float GEMM's: 12 rows x 16 channels with AVX-512 (`Int8GEMM+Tile16.swift`), 6 x 8
/// otherwise (`Int8GEMM+Tile8.swift`).
enum Int8GEMM {
    /// The int32 sums of `rowCount` (at most ``rowTile``) rows with one block of weights:
    /// `sums[r * int8LaneCount + j] = sum_k a[r * lda + k] * panel[k * int8LaneCount + j]`.
    /// The depth is cut into pieces of at most `exactFloatProductCount`, each summed exactly
    /// in float and added in int32. `sums` holds ``rowTile`` rows; rows past `rowCount` get
    /// meaningless values.
    @inline(__always)
    static func blockSums(a: UnsafePointer<Float>, lda: Int, rowCount: Int, depth: Int,
                          panel: UnsafePointer<Weight>, sums: UnsafeMutableRawPointer) {
        var k0 = 0
        repeat {
            let n = min(exactFloatProductCount, depth - k0)
            tile(a: a + k0, lda: lda, rowCount: rowCount, depth: n, panel: panel + k0 * int8LaneCount,
                 sums: sums, accumulate: k0 > 0)
            k0 += n
        } while k0 < depth
    }

    /// Converts `count` int8 values to floats at `destination`.
    @inline(__always)
    static func convert(_ source: UnsafePointer<Int8>, count: Int, to destination: UnsafeMutablePointer<Float>) {
        var i = 0
        let raw = UnsafeRawPointer(source), out = UnsafeMutableRawPointer(destination)
        while i + 8 <= count {
            out.storeBytes(of: int8AsFloat(raw.loadUnaligned(fromByteOffset: i, as: SIMD8<Int8>.self)),
                           toByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
        while i < count {
            destination[i] = Float(source[i])
            i += 1
        }
    }
}
