/// TILE and BROADCAST_TO on any element type.
public enum Tile {
    /// TILE: repeats the input `multiples[d]` times along each axis.
    public static func apply(input: UnsafeRawPointer, inputShape: [Int], multiples: [Int],
                             elementSize: Int, output: UnsafeMutableRawPointer) {
        let strides = Shape.strides(inputShape)
        let outShape = zip(inputShape, multiples).map { $0 * $1 }
        let tables = outShape.indices.map { d in (0..<outShape[d]).map { ($0 % inputShape[d]) * strides[d] } }
        IndexMapCopy.run(input: input, output: output, outputShape: outShape, tables: tables, elementSize: elementSize)
    }

    /// BROADCAST_TO: repeats the input (aligned on trailing axes, size-1 axes stretched) to
    /// `outputShape`.
    public static func broadcast(input: UnsafeRawPointer, inputShape: [Int], outputShape: [Int],
                                 elementSize: Int, output: UnsafeMutableRawPointer) {
        let ext = Shape.extended(inputShape, toRank: outputShape.count)
        let strides = Shape.strides(ext)
        let tables = outputShape.indices.map { d in (0..<outputShape[d]).map { ext[d] == 1 ? 0 : $0 * strides[d] } }
        IndexMapCopy.run(input: input, output: output, outputShape: outputShape, tables: tables, elementSize: elementSize)
    }
}

/// REVERSE_V2 on any element type.
public enum Reverse {
    /// Reverses the order of elements along each of `axes` (non-negative).
    public static func apply(input: UnsafeRawPointer, shape: [Int], axes: [Int],
                             elementSize: Int, output: UnsafeMutableRawPointer) {
        let strides = Shape.strides(shape)
        let tables = shape.indices.map { d in
            (0..<shape[d]).map { (axes.contains(d) ? shape[d] - 1 - $0 : $0) * strides[d] }
        }
        IndexMapCopy.run(input: input, output: output, outputShape: shape, tables: tables, elementSize: elementSize)
    }
}
