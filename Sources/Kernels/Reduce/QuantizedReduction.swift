/// Calls `body(inputIndex, outputIndex)` for every input element in row-major order, where
/// `outputIndex` is the element's position in the reduced (flattened) output.
///
/// The innermost axis is a plain loop, its output index advancing by 1 (kept) or 0 (reduced),
/// and the odometer moves once per row: a global average pool (MEAN over height and width,
/// channels innermost) then sums whole channel rows in vectors. Stepping the odometer after
/// every element made mobilenet_v2_int8's final MEAN 5% of the model.
///
/// - Parameters:
///   - reduced: one flag per input axis, true for the axes being reduced.
@inline(__always)
func forEachReducedElement(inputShape: [Int], reduced: [Bool], _ body: (Int, Int) -> Void) {
    let rank = inputShape.count
    let total = inputShape.reduce(1, *)
    guard total > 0 else { return }
    guard rank > 0 else { return body(0, 0) }
    // The strides and the odometer live on the stack: this runs at every invoke.
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * rank) { memory in
        memory.initialize(repeating: 0)
        // Output strides over the kept axes; 0 on reduced axes.
        let outputStrides = memory.baseAddress!, counter = outputStrides + rank
        var step = 1
        for axis in (0..<rank).reversed() where !reduced[axis] {
            outputStrides[axis] = step
            step *= inputShape[axis]
        }
        let inner = inputShape[rank - 1], innerKept = !reduced[rank - 1]
        var o = 0, i = 0
        while i < total {
            if innerKept {
                for k in 0..<inner { body(i &+ k, o &+ k) }
            } else {
                for k in 0..<inner { body(i &+ k, o) }
            }
            i &+= inner
            var axis = rank - 2
            while axis >= 0 {
                counter[axis] += 1
                o += outputStrides[axis]
                if counter[axis] < inputShape[axis] { break }
                o -= outputStrides[axis] * counter[axis]
                counter[axis] = 0
                axis -= 1
            }
        }
    }
}

/// The reduced-axis flags for `axes` (negative values count from the end; repeats allowed),
/// or nil when an axis is out of range.
public func reductionMask(rank: Int, axes: [Int]) -> [Bool]? {
    var mask = [Bool](repeating: false, count: rank)
    for a in axes {
        let axis = a < 0 ? a + rank : a
        guard axis >= 0, axis < rank else { return nil }
        mask[axis] = true
    }
    return mask
}
