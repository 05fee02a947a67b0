/// A constant `[rows, columns]` int4 weight matrix with blockwise float16 scales, as
/// converters write transformer weights: read in place (never widened in memory), with the
/// scales converted to float once and the per-row correction term the kernels need for
/// asymmetrically quantised inputs computed at prepare.
public struct BlockwiseInt4Weights: @unchecked Sendable {
    /// The packed values (``PackedInt4``), row-major; the model's buffer, read in place.
    public let packed: UnsafePointer<UInt8>
    public let rows: Int
    public let columns: Int
    public let blockSize: Int
    /// `scales[r * blocksPerRow + b]`: the scale of block `b` of row `r`.
    public let scales: [Float]
    /// `sum over b of scales[r, b] * (sum of row r's values in block b)`, accumulated in
    /// block order in float as LiteRT does, so the kernels subtract the same value.
    public let scaledBlockSums: [Float]

    public var blocksPerRow: Int { columns / blockSize }

    /// `columns` must be a multiple of `blockSize` (callers check, with a clear error);
    /// `halfScales` holds `rows * columns / blockSize` binary16 values.
    public init(packed: UnsafePointer<UInt8>, rows: Int, columns: Int, blockSize: Int, halfScales: UnsafePointer<UInt16>) {
        precondition(blockSize > 0 && columns % blockSize == 0, "columns must be a multiple of the block size")
        self.packed = packed
        self.rows = rows
        self.columns = columns
        self.blockSize = blockSize
        let blocks = columns / blockSize
        let scales = (0..<(rows * blocks)).map { HalfPrecision.float(fromBits: halfScales[$0]) }
        var sums = [Float](repeating: 0, count: rows)
        for r in 0..<rows {
            var total: Float = 0
            for b in 0..<blocks {
                var blockSum: Int32 = 0
                let start = r * columns + b * blockSize
                for k in 0..<blockSize { blockSum &+= Int32(PackedInt4.value(packed, at: start + k)) }
                total += scales[r * blocks + b] * Float(blockSum)
            }
            sums[r] = total
        }
        self.scales = scales
        self.scaledBlockSums = sums
    }
}
