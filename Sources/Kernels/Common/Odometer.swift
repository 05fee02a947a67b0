/// Steps the multi-index `index` over axes `0...lastAxis` (the last one fastest) to the next
/// position inside `extents`, and back to all zeros after the last position: the walk every
/// kernel that visits a shape element by element (or row by row) takes.
@inline(__always)
func stepOdometer(_ index: UnsafeMutablePointer<Int>, extents: [Int], lastAxis: Int) {
    stepOdometer(index, extents: extents, lastAxis: lastAxis) { _, _ in }
}

/// ``stepOdometer(_:extents:lastAxis:)`` for walks that keep offsets in step with the index:
/// each axis that moves is reported, once `index` holds its new value, as `move(axis, by)`,
/// `by` being 1 where the axis advances and `1 - extent` where it wraps back to 0. An offset
/// `sum(index[d] * stride[d])` follows by adding `by * stride[axis]`. Returns false after the
/// last position.
@inline(__always)
@discardableResult
func stepOdometer(_ index: UnsafeMutablePointer<Int>, extents: [Int], lastAxis: Int,
                  move: (_ axis: Int, _ by: Int) -> Void) -> Bool {
    var d = lastAxis
    while d >= 0 {
        index[d] += 1
        if index[d] < extents[d] {
            move(d, 1)
            return true
        }
        index[d] = 0
        move(d, 1 - extents[d])
        d -= 1
    }
    return false
}
