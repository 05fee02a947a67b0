/// EMBEDDING_LOOKUP of packed int4 tables into float rows, as LiteRT's blockwise and hybrid
/// lookups: each value is widened by moving its nibble to the top of an int8 (so it is 16
/// times the value) and multiplied by the scale divided by 16, the product LiteRT rounds.
extension EmbeddingLookup {
    /// Rows of a blockwise table (``BlockwiseInt4Weights``): block `b` of row `id` is scaled by
    /// its own scale.
    /// - Throws: `KernelError.indexOutOfRange` for an id outside the table.
    public static func blockwiseInt4<Index: FixedWidthInteger>(ids: UnsafePointer<Index>, count: Int, table: BlockwiseInt4Weights,
                                                               output: UnsafeMutablePointer<Float>) throws(KernelError) {
        let columns = table.columns, blocks = table.blocksPerRow
        for i in 0..<count {
            let id = try row(ids, i, rows: table.rows)
            for b in 0..<blocks {
                let start = b * table.blockSize
                unpackScaled(table.packed, from: id * columns + start, count: table.blockSize, scale: table.scales[id * blocks + b],
                             into: output + i * columns + start)
            }
        }
    }

    /// Rows of an int4 table with one scale (`scales[0]`) or one per row, no zero point.
    /// - Throws: `KernelError.indexOutOfRange` for an id outside `0..<rows`.
    public static func int4<Index: FixedWidthInteger>(ids: UnsafePointer<Index>, count: Int, table: UnsafePointer<UInt8>,
                                                      rows: Int, rowLength: Int, scales: [Float],
                                                      output: UnsafeMutablePointer<Float>) throws(KernelError) {
        for i in 0..<count {
            let id = try row(ids, i, rows: rows)
            unpackScaled(table, from: id * rowLength, count: rowLength, scale: scales.count > 1 ? scales[id] : scales[0],
                         into: output + i * rowLength)
        }
    }

    @inline(__always)
    private static func unpackScaled(_ packed: UnsafePointer<UInt8>, from start: Int, count: Int, scale: Float,
                                     into output: UnsafeMutablePointer<Float>) {
        let sixteenth = scale / 16
        for j in 0..<count {
            output[j] = Float(PackedInt4.value(packed, at: start + j) &<< 4) * sixteenth
        }
    }
}
