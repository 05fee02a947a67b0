#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// EMBEDDING_LOOKUP_SPARSE: rows of an embedding table combined per output bucket. Lookup `i`
/// adds row `ids[i]` times `weights[i]` to the bucket its coordinates (all but the last column
/// of `indices`) name; consecutive lookups into one bucket form a group, which MEAN divides by
/// its total weight and SQRTN by the root of its squared weights, as LiteRT does.
public enum EmbeddingLookupSparse {
    public enum Combiner: Sendable { case sum, mean, sqrtn }

    /// - Throws: `KernelError.indexOutOfRange` for an id outside the table or a coordinate
    ///   outside the dense shape.
    public static func run(ids: UnsafePointer<Int32>, indices: UnsafePointer<Int32>, lookups: Int, lookupRank: Int,
                           denseShape: [Int], weights: UnsafePointer<Float>, table: UnsafePointer<Float>, rows: Int,
                           embeddingSize: Int, combiner: Combiner, output: UnsafeMutablePointer<Float>) throws(KernelError) {
        let buckets = denseShape.dropLast().reduce(1, *)
        output.update(repeating: 0, count: buckets * embeddingSize)
        var current = 0, elements = 0
        var total: Float = 0, squares: Float = 0
        func finish() {
            guard combiner != .sum, elements > 0 else { return }
            let divisor = combiner == .mean ? total : squares.squareRoot()
            for k in 0..<embeddingSize { output[current + k] /= divisor }
        }
        for i in 0..<lookups {
            let id = Int(ids[i])
            guard id >= 0, id < rows else { throw .indexOutOfRange(index: id, bound: rows, position: i) }
            var bucket = 0, scale = 1
            for k in stride(from: lookupRank - 2, through: 0, by: -1) {
                let coordinate = Int(indices[i * lookupRank + k])
                guard coordinate >= 0, coordinate < denseShape[k] else {
                    throw .indexOutOfRange(index: coordinate, bound: denseShape[k], position: i * lookupRank + k)
                }
                bucket += coordinate * scale
                scale *= denseShape[k]
            }
            let offset = bucket * embeddingSize
            if offset != current {
                finish()
                elements = 0
                total = 0
                squares = 0
                current = offset
            }
            elements += 1
            let w = weights[i], row = table + id * embeddingSize
            squares += w * w
            total += w
            for k in 0..<embeddingSize { output[offset + k] += row[k] * w }
        }
        finish()
    }
}
