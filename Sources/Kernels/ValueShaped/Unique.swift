/// UNIQUE: the distinct values of a vector in order of first appearance, and for every element
/// the position of its value in that list.
public enum Unique {
    /// Finds the distinct values of `input`; writes one position per element into `indices`.
    /// - Returns: the distinct values, first appearance first (their count is the length of
    ///   the first output).
    public static func run<T: Hashable, Index: FixedWidthInteger>(input: UnsafePointer<T>, count: Int,
                                                                 indices: UnsafeMutablePointer<Index>) -> [T] {
        var positions: [T: Int] = [:]
        var values: [T] = []
        for i in 0..<count {
            let x = input[i]
            if let p = positions[x] {
                indices[i] = Index(truncatingIfNeeded: p)
            } else {
                positions[x] = values.count
                indices[i] = Index(truncatingIfNeeded: values.count)
                values.append(x)
            }
        }
        return values
    }
}
