/// Helpers over tensor shapes given as `[Int]`, outermost dimension first (row-major).
public enum Shape {
    /// The number of elements in a tensor of this shape (1 for rank 0).
    @inlinable
    public static func elementCount(_ shape: [Int]) -> Int {
        var n = 1
        for d in shape { n *= d }
        return n
    }

    /// The number of elements, or nil when a dimension is negative or the product overflows:
    /// for shapes not yet proven, such as those read from a model or given by a caller.
    public static func checkedElementCount(_ shape: [Int]) -> Int? {
        var n = 1
        for d in shape {
            guard d >= 0 else { return nil }
            let (p, o) = n.multipliedReportingOverflow(by: d)
            guard !o else { return nil }
            n = p
        }
        return n
    }

    /// Row-major strides, in elements, of a tensor of this shape.
    public static func strides(_ shape: [Int]) -> [Int] {
        var strides = [Int](repeating: 1, count: shape.count)
        var s = 1
        for i in stride(from: shape.count - 1, through: 0, by: -1) {
            strides[i] = s
            s *= shape[i]
        }
        return strides
    }

    /// The product of the dimensions in `range` (1 for an empty range).
    public static func product(_ shape: [Int], _ range: Range<Int>) -> Int {
        var n = 1
        for i in range { n *= shape[i] }
        return n
    }

    /// The NumPy broadcast of two shapes, or nil when a pair of dimensions differs and neither
    /// is 1. Shapes of different rank are aligned on their last dimension.
    public static func broadcast(_ a: [Int], _ b: [Int]) -> [Int]? {
        let rank = Swift.max(a.count, b.count)
        var out = [Int](repeating: 1, count: rank)
        for i in 0..<rank {
            let da = i < rank - a.count ? 1 : a[i - (rank - a.count)]
            let db = i < rank - b.count ? 1 : b[i - (rank - b.count)]
            if da == db || db == 1 { out[i] = da } else if da == 1 { out[i] = db } else { return nil }
        }
        return out
    }

    /// `shape` padded on the left with 1s up to `rank`.
    public static func extended(_ shape: [Int], toRank rank: Int) -> [Int] {
        shape.count >= rank ? shape : [Int](repeating: 1, count: rank - shape.count) + shape
    }
}
