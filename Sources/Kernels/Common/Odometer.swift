/// Steps the multi-index `index` over axes `0...lastAxis` (the last one fastest) to the next
/// position inside `extents`, and back to all zeros after the last position: the walk every
/// kernel that visits a shape element by element (or row by row) takes.
@inline(__always)
func stepOdometer(_ index: UnsafeMutablePointer<Int>, extents: [Int], lastAxis: Int) {
    var d = lastAxis
    while d >= 0 {
        index[d] += 1
        if index[d] < extents[d] { return }
        index[d] = 0
        d -= 1
    }
}
