/// Index sorts by decreasing score, with the tie order TFLite's results depend on.
///
/// TFLite sorts NMS candidates with a stable sort but ranks each anchor's classes (fast NMS
/// with several classes per detection) with the C++ library's `partial_sort`, a heap
/// selection whose order among equal scores is fixed by the heap operations. Quantised
/// scores tie often, so the heap steps are reproduced here rather than replaced by another
/// sort.
enum ScoreSort {
    /// Sorts `indices[0..<count]` by decreasing `values[index]`, equal values by increasing
    /// index (TFLite's stable sort of candidates in index order). That is a total order, so an
    /// in-place heapsort gives the same result as any stable sort, without the buffer a merge
    /// sort would allocate at every invoke.
    static func sortDecreasing(_ indices: UnsafeMutablePointer<Int>, count: Int, by values: UnsafePointer<Float>) {
        // ranksBefore(a, b): a comes first. The heap keeps the last-ranked index at its root.
        let ranksBefore = { (a: Int, b: Int) -> Bool in values[a] > values[b] || (values[a] == values[b] && a < b) }
        func swapAt(_ i: Int, _ j: Int) { (indices[i], indices[j]) = (indices[j], indices[i]) }
        func siftDown(_ start: Int, _ end: Int) {
            var root = start
            while true {
                var child = 2 * root + 1
                if child >= end { return }
                if child + 1 < end && ranksBefore(indices[child], indices[child + 1]) { child += 1 }
                guard ranksBefore(indices[root], indices[child]) else { return }
                swapAt(root, child)
                root = child
            }
        }
        guard count > 1 else { return }
        for start in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(start, count) }
        for end in stride(from: count - 1, to: 0, by: -1) {
            swapAt(0, end)
            siftDown(0, end)
        }
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
