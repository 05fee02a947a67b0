/// DYNAMIC_UPDATE_SLICE: a copy of `operand` with the block `update` written at a start
/// coordinate. Each start coordinate is clamped into 0...(operand extent - update extent) so the
/// block always fits, as XLA defines the op. Element-size generic: rows of the block are
/// copied as bytes, and nothing is allocated per call (KV caches run it for every token).
public struct DynamicUpdateSlice: Sendable {
    public let operandShape: [Int], updateShape: [Int], elementSize: Int
    let strides: [Int]

    /// Shapes of equal rank, `update` no larger than `operand` along any axis.
    public init(operandShape: [Int], updateShape: [Int], elementSize: Int) {
        self.operandShape = operandShape
        self.updateShape = updateShape
        self.elementSize = elementSize
        strides = Shape.strides(operandShape)
    }

    /// The start along `axis` for a requested coordinate.
    @inline(__always)
    public func clamped(_ requested: Int, axis: Int) -> Int {
        Swift.min(Swift.max(0, requested), operandShape[axis] - updateShape[axis])
    }

    /// Writes `operand` with `update` at the clamped `start(axis)` into `output`, which may be
    /// `operand` itself.
    public func run(operand: UnsafeRawPointer, update: UnsafeRawPointer, start: (Int) -> Int, output: UnsafeMutableRawPointer) {
        if UnsafeRawPointer(output) != operand {
            output.copyMemory(from: operand, byteCount: Shape.elementCount(operandShape) * elementSize)
        }
        let blocks = Shape.elementCount(updateShape), rank = operandShape.count
        guard blocks > 0 else { return }
        guard rank > 0 else {
            output.copyMemory(from: update, byteCount: elementSize)
            return
        }
        let rowBytes = updateShape[rank - 1] * elementSize, rows = blocks / updateShape[rank - 1]
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * rank) { buffer in
            // The clamped start, then the current row's coordinate inside the block.
            let begin = buffer.baseAddress!, coordinate = begin + rank
            for d in 0..<rank {
                begin[d] = clamped(start(d), axis: d)
                coordinate[d] = 0
            }
            for row in 0..<rows {
                var offset = begin[rank - 1]
                for d in 0..<(rank - 1) { offset += (begin[d] + coordinate[d]) * strides[d] }
                (output + offset * elementSize).copyMemory(from: update + row * rowBytes, byteCount: rowBytes)
                stepOdometer(coordinate, extents: updateShape, lastAxis: rank - 2)
            }
        }
    }
}
