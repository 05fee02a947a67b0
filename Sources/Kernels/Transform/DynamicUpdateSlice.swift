/// DYNAMIC_UPDATE_SLICE: a copy of `operand` with the block `update` written at `start`. Each
/// start coordinate is clamped into 0...(operand extent - update extent) so the block always
/// fits, as XLA defines the op. Element-size generic: rows of the block are copied as bytes.
public enum DynamicUpdateSlice {
    /// The clamped start of `updateShape` inside `operandShape` for the requested `start`.
    public static func clampedStart(_ start: [Int], operandShape: [Int], updateShape: [Int]) -> [Int] {
        zip(start, zip(operandShape, updateShape)).map { s, dims in Swift.min(Swift.max(0, s), dims.0 - dims.1) }
    }

    /// Writes `operand` with `update` at `start` (already clamped) into `output`; `output` may
    /// be `operand` itself. Shapes have equal rank and `update` fits inside `operand`.
    public static func run(operand: UnsafeRawPointer, operandShape: [Int], update: UnsafeRawPointer, updateShape: [Int],
                           start: [Int], elementSize: Int, output: UnsafeMutableRawPointer) {
        let total = Shape.elementCount(operandShape) * elementSize
        if UnsafeRawPointer(output) != operand { output.copyMemory(from: operand, byteCount: total) }
        let blocks = Shape.elementCount(updateShape)
        guard blocks > 0 else { return }
        let rank = operandShape.count
        guard rank > 0 else {
            output.copyMemory(from: update, byteCount: elementSize)
            return
        }
        let strides = Shape.strides(operandShape)
        let rowBytes = updateShape[rank - 1] * elementSize
        let rows = blocks / updateShape[rank - 1]
        // Walk the update's rows in order, keeping the row's coordinate in the block.
        var coordinate = [Int](repeating: 0, count: rank)
        for row in 0..<rows {
            var offset = start[rank - 1]
            for d in 0..<(rank - 1) { offset += (start[d] + coordinate[d]) * strides[d] }
            (output + offset * elementSize).copyMemory(from: update + row * rowBytes, byteCount: rowBytes)
            var d = rank - 2
            while d >= 0 {
                coordinate[d] += 1
                if coordinate[d] < updateShape[d] { break }
                coordinate[d] = 0
                d -= 1
            }
        }
    }
}
