/// STABLEHLO_GATHER with LiteRT's semantics: each batch position's start index is clamped so
/// the whole slice lies inside the operand, so no index is ever out of range.
public struct HLOGatherPlan: Sendable {
    public let outputShape: [Int]
    let vectors: IndexVectorLayout
    /// Per index-vector component: the operand stride of the axis it indexes and the largest
    /// start allowed there (extent minus slice size).
    let componentStrides: [Int]
    let componentLimits: [Int]
    /// Per output axis: the operand offset each index adds (offset axes) and the batch
    /// position it adds (batch axes); the other table of the axis is all zeros.
    let offsetTables: [[Int]]
    let batchTables: [[Int]]

    /// The options must be valid (prepare checks): `offsetDims` sorted, one per operand axis
    /// not in `collapsedSliceDims`; `startIndexMap` as long as an index vector; slice sizes
    /// within the operand.
    public init(operandShape: [Int], indicesShape: [Int], offsetDims: [Int], collapsedSliceDims: [Int],
                startIndexMap: [Int], indexVectorDim: Int, sliceSizes: [Int]) {
        vectors = IndexVectorLayout(indicesShape: indicesShape, indexVectorDim: indexVectorDim)
        let operandStrides = Shape.strides(operandShape)
        componentStrides = startIndexMap.map { operandStrides[$0] }
        componentLimits = startIndexMap.map { operandShape[$0] - sliceSizes[$0] }
        let sliceAxes = operandShape.indices.filter { !collapsedSliceDims.contains($0) }
        let batchStrides = Shape.strides(vectors.batchShape)
        var shape: [Int] = [], offsets: [[Int]] = [], batches: [[Int]] = []
        var nextSlice = 0, nextBatch = 0
        for d in 0..<(offsetDims.count + vectors.batchShape.count) {
            if offsetDims.contains(d) {
                let axis = sliceAxes[nextSlice]
                nextSlice += 1
                shape.append(sliceSizes[axis])
                offsets.append((0..<sliceSizes[axis]).map { $0 * operandStrides[axis] })
                batches.append([Int](repeating: 0, count: sliceSizes[axis]))
            } else {
                let n = vectors.batchShape[nextBatch], s = batchStrides[nextBatch]
                nextBatch += 1
                shape.append(n)
                offsets.append([Int](repeating: 0, count: n))
                batches.append((0..<n).map { $0 * s })
            }
        }
        outputShape = shape
        offsetTables = offsets
        batchTables = batches
    }

    /// Scratch `starts` needs this many elements: one operand offset per batch position.
    public var scratchCount: Int { vectors.batchCount }

    /// Gathers `elementSize`-byte elements of `operand` into `output`.
    public func run<I: BinaryInteger>(operand: UnsafeRawPointer, indices: UnsafePointer<I>, elementSize: Int,
                                      output: UnsafeMutableRawPointer, starts: UnsafeMutablePointer<Int>) {
        let count = Shape.elementCount(outputShape)
        guard count > 0 else { return }
        vectors.forEachVector { b, base in
            var start = 0
            for k in componentStrides.indices {
                let i = vectors.component(indices, base, k)
                start += Int(Swift.max(0, Swift.min(i, Int64(componentLimits[k])))) * componentStrides[k]
            }
            starts[b] = start
        }
        let rank = outputShape.count
        withUnsafeTemporaryAllocation(of: Int.self, capacity: max(rank, 1)) { index in
            index.initialize(repeating: 0)
            for o in 0..<count {
                var offset = 0, batch = 0
                for d in 0..<rank {
                    offset += offsetTables[d][index[d]]
                    batch += batchTables[d][index[d]]
                }
                IndexMapCopy.copyElement(from: operand + (starts[batch] + offset) * elementSize,
                                         to: output + o * elementSize, elementSize)
                stepOdometer(index.baseAddress!, extents: outputShape, lastAxis: rank - 1)
            }
        }
    }
}
