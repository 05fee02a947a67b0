/// Index sorts by decreasing score, with the tie order TFLite's results depend on.
///
/// TFLite sorts NMS candidates with a stable sort but ranks each anchor's classes (fast NMS
/// with several classes per detection) with the C++ library's `partial_sort`, a heap
/// selection whose order among equal scores is fixed by the heap operations. Quantised
/// scores tie often, so the heap steps are reproduced here rather than replaced by another
/// sort.
enum ScoreSort {
    /// Indices `0..<values.count` ordered by decreasing value, equal values keeping their order.
    static func stableDecreasing(_ values: [Float]) -> [Int] {
        // The index tie-break makes the order independent of the sort's own stability.
        Array(values.indices).sorted { values[$0] > values[$1] || (values[$0] == values[$1] && $0 < $1) }
    }

    /// Fills `indices[0..<count]` with `0..<count` and moves the `k` largest values' indices,
    /// in decreasing order, to the front; the rest are left in heap-selection order.
    static func partialDecreasing(_ values: UnsafePointer<Float>, count: Int, k: Int,
                                  indices: UnsafeMutablePointer<Int>) {
        if k == 1 {
            indices[0] = argMax(values, count: count)
            return
        }
        for i in 0..<count { indices[i] = i }
        guard k > 0 else { return }
        // comp(a, b): a ranks before b.
        let before = { (a: Int, b: Int) -> Bool in values[a] > values[b] }
        makeHeap(indices, count: k, before)
        if k < count {
            for i in k..<count where before(indices[i], indices[0]) {
                let value = indices[i]
                indices[i] = indices[0]
                adjustHeap(indices, hole: 0, length: k, value: value, before)
            }
        }
        var last = k
        while last > 1 {
            last -= 1
            let value = indices[last]
            indices[last] = indices[0]
            adjustHeap(indices, hole: 0, length: last, value: value, before)
        }
    }

    /// The first index holding the largest value.
    static func argMax(_ values: UnsafePointer<Float>, count: Int) -> Int {
        var best = 0
        var bestValue = values[0]
        for i in 1..<max(count, 1) where values[i] > bestValue {
            best = i
            bestValue = values[i]
        }
        return best
    }

    private static func makeHeap(_ h: UnsafeMutablePointer<Int>, count: Int, _ before: (Int, Int) -> Bool) {
        guard count >= 2 else { return }
        var parent = (count - 2) / 2
        while true {
            adjustHeap(h, hole: parent, length: count, value: h[parent], before)
            if parent == 0 { return }
            parent -= 1
        }
    }

    /// Sifts the hole at `hole` down to a leaf, then pushes `value` back up from there.
    private static func adjustHeap(_ h: UnsafeMutablePointer<Int>, hole start: Int, length: Int, value: Int,
                                   _ before: (Int, Int) -> Bool) {
        var hole = start
        var child = start
        while child < (length - 1) / 2 {
            child = 2 * (child + 1)
            if before(h[child], h[child - 1]) { child -= 1 }
            h[hole] = h[child]
            hole = child
        }
        if length & 1 == 0 && child == (length - 2) / 2 {
            child = 2 * (child + 1)
            h[hole] = h[child - 1]
            hole = child - 1
        }
        var parent = (hole - 1) / 2
        while hole > start && before(h[parent], value) {
            h[hole] = h[parent]
            hole = parent
            parent = (hole - 1) / 2
        }
        h[hole] = value
    }
}
