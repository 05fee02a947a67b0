/// Walks an output shape and the two (numpy-style broadcast) input shapes together, calling
/// `body(aIndex, bIndex, outputIndex)` for every output element in row-major order.
///
/// Shapes of lower rank are aligned to the right; a dimension of 1 is repeated. Prepare has
/// checked that the shapes broadcast to `outputShape`.
@inline(__always)
func forEachBroadcastElement(a aShape: [Int], b bShape: [Int], output outputShape: [Int],
                             _ body: (Int, Int, Int) -> Void) {
    let rank = outputShape.count
    let total = outputShape.reduce(1, *)
    if aShape == outputShape && bShape == outputShape {
        for i in 0..<total { body(i, i, i) }
        return
    }
    let aStrides = broadcastStrides(aShape, rank: rank, output: outputShape)
    let bStrides = broadcastStrides(bShape, rank: rank, output: outputShape)
    withUnsafeTemporaryAllocation(of: Int.self, capacity: max(rank, 1)) { counter in
        counter.initialize(repeating: 0)
        var ai = 0, bi = 0
        for o in 0..<total {
            body(ai, bi, o)
            stepOdometer(counter.baseAddress!, extents: outputShape, lastAxis: rank - 1) { axis, by in
                ai += aStrides[axis] * by
                bi += bStrides[axis] * by
            }
        }
    }
}

/// Row-major strides of `shape` right-aligned to `rank` axes, with 0 on broadcast axes.
func broadcastStrides(_ shape: [Int], rank: Int, output: [Int]) -> [Int] {
    var strides = [Int](repeating: 0, count: rank)
    var step = 1
    for axis in (0..<rank).reversed() {
        let k = axis - (rank - shape.count)
        let extent = k >= 0 ? shape[k] : 1
        strides[axis] = extent == 1 && output[axis] != 1 ? 0 : step
        step *= extent
    }
    return strides
}
