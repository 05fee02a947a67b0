/// TOPK_V2: the `k` largest values of each row of the last axis, largest first, with their
/// indices. Equal values keep their original order (the lower index comes first), as TFLite
/// returns them.
public enum TopK {
    /// Selects the top `k` of each of `rows` rows of `rowLength` values.
    /// - Precondition: `0 <= k <= rowLength`.
    public static func run<T: Comparable, Index: FixedWidthInteger>(
        input: UnsafePointer<T>, rows: Int, rowLength: Int, k: Int,
        values: UnsafeMutablePointer<T>, indices: UnsafeMutablePointer<Index>) {
        guard k > 0 else { return }
        var order = [Int](repeating: 0, count: rowLength)
        for r in 0..<rows {
            let row = input + r * rowLength
            for i in 0..<rowLength { order[i] = i }
            // A stable order: by value descending, then by index ascending.
            order.sort { a, b in row[a] > row[b] || (!(row[b] > row[a]) && a < b) }
            for j in 0..<k {
                values[r * k + j] = row[order[j]]
                indices[r * k + j] = Index(truncatingIfNeeded: order[j])
            }
        }
    }
}
