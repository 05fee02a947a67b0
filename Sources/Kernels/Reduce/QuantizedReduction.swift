/// Calls `body(inputIndex, outputIndex)` for every input element in row-major order, where
/// `outputIndex` is the element's position in the reduced (flattened) output (see
/// ``forEachReducedElement(inputShape:outputStrides:_:)``).
///
/// - Parameters:
///   - reduced: one flag per input axis, true for the axes being reduced.
@inline(__always)
func forEachReducedElement(inputShape: [Int], reduced: [Bool], _ body: (Int, Int) -> Void) {
    let rank = inputShape.count
    guard rank > 0 else { return body(0, 0) }
    // The strides live on the stack: this runs at every invoke.
    withUnsafeTemporaryAllocation(of: Int.self, capacity: rank) { outputStrides in
        // Output strides over the kept axes; 0 on reduced axes.
        var step = 1
        for axis in (0..<rank).reversed() {
            outputStrides[axis] = reduced[axis] ? 0 : step
            if !reduced[axis] { step *= inputShape[axis] }
        }
        forEachReducedElement(inputShape: inputShape, outputStrides: UnsafePointer(outputStrides.baseAddress!), body)
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
