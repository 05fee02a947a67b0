/// A buffer the planner must place: its size and the first and last execution steps that
/// use it (inclusive). The planner knows nothing about tensors.
public struct BufferRequest: Sendable, Equatable {
    public var size: Int
    public var firstUse: Int
    public var lastUse: Int

    public init(size: Int, firstUse: Int, lastUse: Int) {
        self.size = size
        self.firstUse = firstUse
        self.lastUse = lastUse
    }

    /// True when the two buffers are alive at a common step.
    public func overlapsInTime(_ other: BufferRequest) -> Bool {
        firstUse <= other.lastUse && other.firstUse <= lastUse
    }
}

/// The result of planning: one offset per request, and the arena size that holds them all.
public struct MemoryPlan: Sendable, Equatable {
    public var offsets: [Int]
    public var arenaSize: Int
}

/// Assigns arena offsets so that buffers alive at the same time never overlap.
public protocol MemoryPlanner {
    func plan(_ requests: [BufferRequest]) -> MemoryPlan
}

extension MemoryPlan {
    /// Checks the plan's invariant: buffers whose lifetimes overlap occupy disjoint bytes and
    /// every buffer fits in the arena. Used by tests and debug builds.
    public func isValid(for requests: [BufferRequest]) -> Bool {
        guard offsets.count == requests.count else { return false }
        for i in requests.indices {
            guard offsets[i] >= 0, offsets[i] + requests[i].size <= arenaSize else { return false }
            for j in requests.indices where j > i && requests[i].overlapsInTime(requests[j]) {
                let disjoint = offsets[i] + requests[i].size <= offsets[j] || offsets[j] + requests[j].size <= offsets[i]
                if !disjoint && requests[i].size > 0 && requests[j].size > 0 { return false }
            }
        }
        return true
    }
}
