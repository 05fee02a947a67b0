/// Places the largest buffers first, each at the lowest aligned offset that does not collide
/// with an already placed buffer whose lifetime overlaps its own (the greedy-by-size strategy
/// of TFLite's arena planners). Usually within a few percent of the optimum for CNNs.
public struct GreedyMemoryPlanner: MemoryPlanner {
    /// Every offset is a multiple of this (SIMD loads like 64-byte alignment).
    public var alignment: Int

    public init(alignment: Int = 64) {
        precondition(alignment > 0 && alignment & (alignment - 1) == 0, "alignment must be a power of two")
        self.alignment = alignment
    }

    public func plan(_ requests: [BufferRequest]) -> MemoryPlan {
        let order = requests.indices.sorted {
            requests[$0].size != requests[$1].size ? requests[$0].size > requests[$1].size : $0 < $1
        }
        var offsets = [Int](repeating: 0, count: requests.count)
        var placed: [Int] = []
        var arenaSize = 0
        for i in order {
            let r = requests[i]
            // Intervals already taken by buffers alive at the same time, by start offset.
            let busy = placed.filter { requests[$0].overlapsInTime(r) && requests[$0].size > 0 }
                .map { (start: offsets[$0], end: offsets[$0] + requests[$0].size) }
                .sorted { $0.start < $1.start }
            var candidate = 0
            for b in busy {
                if candidate + r.size <= b.start { break }
                candidate = max(candidate, align(b.end))
            }
            offsets[i] = candidate
            placed.append(i)
            arenaSize = max(arenaSize, candidate + r.size)
        }
        return MemoryPlan(offsets: offsets, arenaSize: align(arenaSize))
    }

    private func align(_ x: Int) -> Int {
        (x + alignment - 1) & ~(alignment - 1)
    }
}
