/// EMBEDDING_LOOKUP: copies rows of a table selected by ids. Rows are copied as bytes, so one
/// kernel serves every element type.
public enum EmbeddingLookup {
    /// Copies row `ids[i]` of `table` (`rows` rows of `rowBytes` bytes) to row `i` of `output`.
    /// - Throws: `KernelError.indexOutOfRange` for an id outside `0..<rows`; rows before it
    ///   have been written.
    public static func run<Index: FixedWidthInteger>(ids: UnsafePointer<Index>, count: Int, table: UnsafeRawPointer,
                                                     rows: Int, rowBytes: Int, output: UnsafeMutableRawPointer) throws(KernelError) {
        for i in 0..<count {
            let id = try row(ids, i, rows: rows)
            if rowBytes > 0 { (output + i * rowBytes).copyMemory(from: table + id * rowBytes, byteCount: rowBytes) }
        }
    }

    /// The hybrid lookup: an 8-bit table dequantised into float rows. As TFLite does, the bytes
    /// are read as signed values (for uint8 tables too) and multiplied by the row's scale
    /// (`scales[0]` for a per-tensor scale, `scales[id]` per row), with no zero point.
    /// - Throws: `KernelError.indexOutOfRange` for an id outside `0..<rows`.
    public static func dequantizing<Index: FixedWidthInteger>(ids: UnsafePointer<Index>, count: Int, table: UnsafePointer<Int8>,
                                                              rows: Int, rowLength: Int, scales: [Float],
                                                              output: UnsafeMutablePointer<Float>) throws(KernelError) {
        for i in 0..<count {
            let id = try row(ids, i, rows: rows)
            let scale = Double(scales.count > 1 ? scales[id] : scales[0])
            for j in 0..<rowLength {
                output[i * rowLength + j] = Float(Double(table[id * rowLength + j]) * scale)
            }
        }
    }

    /// The table row lookup `i` names: ids come from a tensor at run time, so each is checked
    /// against the table's `rows`.
    @inline(__always)
    static func row<Index: FixedWidthInteger>(_ ids: UnsafePointer<Index>, _ i: Int, rows: Int) throws(KernelError) -> Int {
        let id = Int(truncatingIfNeeded: ids[i])
        guard id >= 0, id < rows else { throw .indexOutOfRange(index: id, bound: rows, position: i) }
        return id
    }
}
