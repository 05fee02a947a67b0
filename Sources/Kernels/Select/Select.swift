/// SELECT and SELECT_V2: `condition ? a : b` elementwise. Booleans are bytes; any non-zero
/// byte is true.
public enum Select {
    /// A three-way broadcast plan: the shapes of condition, `a` and `b` aligned on their last
    /// axis (NumPy rules, SELECT_V2), or SELECT's form where the condition is a vector
    /// selecting whole rows of `a` and `b`.
    public struct Plan: Sendable, Equatable {
        /// The output shape.
        public let outputShape: [Int]
        let conditionStrides: [Int], aStrides: [Int], bStrides: [Int]

        /// Broadcasts all three shapes; nil when they do not broadcast.
        public init?(condition: [Int], a: [Int], b: [Int]) {
            guard let ab = Shape.broadcast(a, b), let out = Shape.broadcast(condition, ab) else { return nil }
            outputShape = out
            conditionStrides = BroadcastPlan.broadcastStrides(condition, rank: out.count)
            aStrides = BroadcastPlan.broadcastStrides(a, rank: out.count)
            bStrides = BroadcastPlan.broadcastStrides(b, rank: out.count)
        }

        /// SELECT with a rank-1 condition over `a` and `b` of equal shape and rank > 1: entry
        /// `i` of the condition picks row `i` (along the first axis). Nil when the condition's
        /// length differs from that axis.
        public init?(rowCondition length: Int, shape: [Int]) {
            guard shape.count > 1, shape[0] == length else { return nil }
            outputShape = shape
            var strides = [Int](repeating: 0, count: shape.count)
            strides[0] = 1
            conditionStrides = strides
            aStrides = Shape.strides(shape)
            bStrides = aStrides
        }
    }

    /// Writes `condition ? a : b` under `plan`.
    public static func run<T>(condition: UnsafePointer<UInt8>, a: UnsafePointer<T>, b: UnsafePointer<T>, plan: Plan,
                              output: UnsafeMutablePointer<T>) {
        let shape = plan.outputShape
        let count = Shape.elementCount(shape)
        guard count > 0 else { return }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: max(shape.count, 1)) { index in
            index.initialize(repeating: 0)
            var c = 0, ia = 0, ib = 0
            for flat in 0..<count {
                output[flat] = condition[c] != 0 ? a[ia] : b[ib]
                stepOdometer(index.baseAddress!, extents: shape, lastAxis: shape.count - 1) { d, by in
                    c += plan.conditionStrides[d] * by
                    ia += plan.aStrides[d] * by
                    ib += plan.bStrides[d] * by
                }
            }
        }
    }
}
