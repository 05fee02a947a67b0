/// REVERSE_V2 on any element type.
public enum Reverse {
    /// Reverses the order of elements along each of `axes` (non-negative).
    public static func plan(shape: [Int], axes: [Int], elementSize: Int) -> IndexMapCopy {
        let strides = Shape.strides(shape)
        let tables = shape.indices.map { d in
            (0..<shape[d]).map { (axes.contains(d) ? shape[d] - 1 - $0 : $0) * strides[d] }
        }
        return IndexMapCopy(outputShape: shape, tables: tables, elementSize: elementSize)
    }

    /// REVERSE_V2 in one call.
    public static func apply(input: UnsafeRawPointer, shape: [Int], axes: [Int],
                             elementSize: Int, output: UnsafeMutableRawPointer) {
        plan(shape: shape, axes: axes, elementSize: elementSize).run(input: input, output: output)
    }
}
