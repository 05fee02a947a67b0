/// TILE and BROADCAST_TO on any element type.
public enum Tile {
    /// TILE: repeats the input `multiples[d]` times along each axis.
    public static func plan(inputShape: [Int], multiples: [Int], elementSize: Int) -> IndexMapCopy {
        let strides = Shape.strides(inputShape)
        let outShape = zip(inputShape, multiples).map { $0 * $1 }
        let tables = outShape.indices.map { d in (0..<outShape[d]).map { ($0 % inputShape[d]) * strides[d] } }
        return IndexMapCopy(outputShape: outShape, tables: tables, elementSize: elementSize)
    }

    /// BROADCAST_TO: repeats the input (aligned on trailing axes, size-1 axes stretched) to
    /// `outputShape`.
    public static func planBroadcast(inputShape: [Int], outputShape: [Int], elementSize: Int) -> IndexMapCopy {
        let ext = Shape.extended(inputShape, toRank: outputShape.count)
        let strides = Shape.strides(ext)
        let tables = outputShape.indices.map { d in (0..<outputShape[d]).map { ext[d] == 1 ? 0 : $0 * strides[d] } }
        return IndexMapCopy(outputShape: outputShape, tables: tables, elementSize: elementSize)
    }

    /// TILE in one call.
    public static func apply(input: UnsafeRawPointer, inputShape: [Int], multiples: [Int],
                             elementSize: Int, output: UnsafeMutableRawPointer) {
        plan(inputShape: inputShape, multiples: multiples, elementSize: elementSize).run(input: input, output: output)
    }

    /// BROADCAST_TO in one call.
    public static func broadcast(input: UnsafeRawPointer, inputShape: [Int], outputShape: [Int],
                                 elementSize: Int, output: UnsafeMutableRawPointer) {
        planBroadcast(inputShape: inputShape, outputShape: outputShape, elementSize: elementSize).run(input: input, output: output)
    }
}
