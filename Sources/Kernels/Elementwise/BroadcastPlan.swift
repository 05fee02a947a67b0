/// How the two operands of a binary op map onto its output, worked out once at prepare:
/// NumPy broadcasting over any rank (TFLite uses up to 6), with fast paths for equal shapes and
/// for a single-element operand.
public struct BroadcastPlan: Sendable, Equatable {
    /// How the operands line up with the output.
    public enum Layout: Sendable, Equatable {
        /// Both operands have the output's element count and layout.
        case sameShape
        /// The left operand has one element, repeated.
        case scalarLHS
        /// The right operand has one element, repeated.
        case scalarRHS
        /// Anything else: strided walk over the output with zero strides on broadcast axes.
        case general
    }

    /// The broadcast output shape.
    public let outputShape: [Int]
    /// The chosen layout.
    public let layout: Layout
    /// Output element count.
    public let elementCount: Int
    @usableFromInline let lhsStrides: [Int]
    @usableFromInline let rhsStrides: [Int]

    /// Plans `lhs op rhs`; nil when the shapes do not broadcast.
    public init?(lhsShape: [Int], rhsShape: [Int]) {
        guard let out = Shape.broadcast(lhsShape, rhsShape) else { return nil }
        outputShape = out
        elementCount = Shape.elementCount(out)
        let lCount = Shape.elementCount(lhsShape), rCount = Shape.elementCount(rhsShape)
        if lCount == elementCount && rCount == elementCount {
            layout = .sameShape
        } else if lCount == 1 && rCount == elementCount {
            layout = .scalarLHS
        } else if rCount == 1 && lCount == elementCount {
            layout = .scalarRHS
        } else {
            layout = .general
        }
        lhsStrides = Self.broadcastStrides(lhsShape, rank: out.count)
        rhsStrides = Self.broadcastStrides(rhsShape, rank: out.count)
    }

    /// Strides of an operand within the output index space: 0 along axes it broadcasts.
    static func broadcastStrides(_ shape: [Int], rank: Int) -> [Int] {
        let ext = Shape.extended(shape, toRank: rank)
        var strides = Shape.strides(ext)
        for i in 0..<rank where ext[i] == 1 { strides[i] = 0 }
        return strides
    }

    /// Applies `op` elementwise under this plan. The building block of every binary kernel.
    @inline(__always)
    func apply<A, B, C>(_ lhs: UnsafePointer<A>, _ rhs: UnsafePointer<B>, _ output: UnsafeMutablePointer<C>,
                        _ op: (A, B) -> C) {
        switch layout {
        case .sameShape:
            for i in 0..<elementCount { output[i] = op(lhs[i], rhs[i]) }
        case .scalarLHS:
            let a = lhs[0]
            for i in 0..<elementCount { output[i] = op(a, rhs[i]) }
        case .scalarRHS:
            let b = rhs[0]
            for i in 0..<elementCount { output[i] = op(lhs[i], b) }
        case .general:
            // Walk the output one innermost run at a time, keeping each operand's offset in
            // step with an odometer over the outer axes. Written inline (not through a
            // closure-taking helper) so `op` is inlined into the inner loops.
            let rank = outputShape.count
            guard elementCount > 0 else { return }
            let inner = outputShape[rank - 1]
            let ls = lhsStrides[rank - 1], rs = rhsStrides[rank - 1]
            // The odometer lives on the stack: this runs at every invoke.
            withUnsafeTemporaryAllocation(of: Int.self, capacity: rank) { index in
                index.initialize(repeating: 0)
                var o = 0, l = 0, r = 0
                while true {
                    // Inner strides are 0 or 1; one loop per combination lets each vectorise.
                    if ls == 1 && rs == 1 {
                        for i in 0..<inner { output[o + i] = op(lhs[l + i], rhs[r + i]) }
                    } else if ls == 1 {
                        let b = rhs[r]
                        for i in 0..<inner { output[o + i] = op(lhs[l + i], b) }
                    } else if rs == 1 {
                        let a = lhs[l]
                        for i in 0..<inner { output[o + i] = op(a, rhs[r + i]) }
                    } else {
                        let value = op(lhs[l], rhs[r])
                        for i in 0..<inner { output[o + i] = value }
                    }
                    o += inner
                    var d = rank - 2
                    while d >= 0 {
                        index[d] += 1
                        l += lhsStrides[d]
                        r += rhsStrides[d]
                        if index[d] < outputShape[d] { break }
                        l -= lhsStrides[d] * outputShape[d]
                        r -= rhsStrides[d] * outputShape[d]
                        index[d] = 0
                        d -= 1
                    }
                    if d < 0 { return }
                }
            }
        }
    }
}
