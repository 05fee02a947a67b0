/// How the two operands of a binary op map onto its output, worked out once at prepare:
/// NumPy broadcasting over any rank (TFLite uses up to 6), with fast paths for equal shapes, a
/// single-element operand, and an operand repeated row after row (a per-channel vector against
/// an NHWC tensor: PRELU's alpha, squeeze-and-excitation scales).
public struct BroadcastPlan: Sendable, Equatable {
    /// How the operands line up with the output.
    public enum Layout: Sendable, Equatable {
        /// Both operands have the output's element count and layout.
        case sameShape
        /// The left operand has one element, repeated.
        case scalarLHS
        /// The right operand has one element, repeated.
        case scalarRHS
        /// The left operand matches the output; the right one is a row of ``BroadcastPlan/rowLength``
        /// elements repeated along every outer axis.
        case rowRHS
        /// The right operand matches the output; the left one is a repeated row.
        case rowLHS
        /// Anything else: strided walk over the output with zero strides on broadcast axes.
        case general
    }

    /// The broadcast output shape.
    public let outputShape: [Int]
    /// The chosen layout.
    public let layout: Layout
    /// Output element count.
    public let elementCount: Int
    /// Elements per innermost run of the walk: the repeated row of the row layouts.
    public let rowLength: Int
    /// The output shape with adjacent axes merged wherever both operands either span them
    /// contiguously or broadcast along both; the walk runs over these.
    @usableFromInline let walkShape: [Int]
    @usableFromInline let lhsStrides: [Int]
    @usableFromInline let rhsStrides: [Int]

    /// Plans `lhs op rhs`; nil when the shapes do not broadcast.
    public init?(lhsShape: [Int], rhsShape: [Int]) {
        guard let out = Shape.broadcast(lhsShape, rhsShape) else { return nil }
        outputShape = out
        elementCount = Shape.elementCount(out)
        (walkShape, lhsStrides, rhsStrides) = Self.mergedAxes(
            out, Self.broadcastStrides(lhsShape, rank: out.count), Self.broadcastStrides(rhsShape, rank: out.count))
        let rank = walkShape.count
        rowLength = walkShape.last ?? 1
        let lCount = Shape.elementCount(lhsShape), rCount = Shape.elementCount(rhsShape)
        if lCount == elementCount && rCount == elementCount {
            layout = .sameShape
        } else if lCount == 1 && rCount == elementCount {
            layout = .scalarLHS
        } else if rCount == 1 && lCount == elementCount {
            layout = .scalarRHS
        } else if rank == 2 && lhsStrides == [rowLength, 1] && rhsStrides == [0, 1] {
            layout = .rowRHS
        } else if rank == 2 && rhsStrides == [rowLength, 1] && lhsStrides == [0, 1] {
            layout = .rowLHS
        } else {
            layout = .general
        }
    }

    /// Strides of an operand within the output index space: 0 along axes it broadcasts.
    static func broadcastStrides(_ shape: [Int], rank: Int) -> [Int] {
        let ext = Shape.extended(shape, toRank: rank)
        var strides = Shape.strides(ext)
        for i in 0..<rank where ext[i] == 1 { strides[i] = 0 }
        return strides
    }

    /// Drops unit axes and merges each axis into the next when, for both operands, the pair
    /// behaves as one axis (the outer stride is the inner stride times the inner extent, zero
    /// strides included), so `[1, 96, 96, 32] x [1, 1, 32]` walks as `[9216, 32]`.
    static func mergedAxes(_ shape: [Int], _ lhs: [Int], _ rhs: [Int]) -> ([Int], [Int], [Int]) {
        var dims: [Int] = [], ls: [Int] = [], rs: [Int] = []
        for d in shape.indices where shape[d] != 1 {
            if let last = dims.last, lhs[d] * shape[d] == ls.last!, rhs[d] * shape[d] == rs.last! {
                dims[dims.count - 1] = last * shape[d]
                ls[ls.count - 1] = lhs[d]
                rs[rs.count - 1] = rhs[d]
            } else {
                dims.append(shape[d])
                ls.append(lhs[d])
                rs.append(rhs[d])
            }
        }
        if dims.isEmpty { return ([1], [0], [0]) }
        return (dims, ls, rs)
    }

    /// Applies `op` elementwise under this plan. The building block of every binary kernel.
    @inline(__always)
    func apply<A, B, C>(_ lhs: UnsafePointer<A>, _ rhs: UnsafePointer<B>, _ output: UnsafeMutablePointer<C>,
                        _ op: (A, B) -> C) {
        apply(elements: 0..<elementCount, lhs, rhs, output, op)
    }

    /// Runs `body` over ranges of output elements that together cover the output: split across
    /// `pool`'s threads when the output is large enough (``parallelElementCount``), else one
    /// range on the calling thread. Row layouts split between rows; the strided layout is never
    /// split. Kernels call ``apply(elements:_:_:_:_:)`` inside `body` with their operation
    /// written there, so that it is inlined into the element loop (a closure carried into the
    /// threads would be called once per element).
    @inline(__always)
    package func split(_ pool: ThreadPool?, _ body: (Range<Int>) -> Void) {
        let unit = layout == .rowLHS || layout == .rowRHS ? rowLength : 1
        ThreadPool.split(layout == .general ? nil : pool, count: elementCount / unit,
                         work: elementCount * ThreadPool.workPerElement) { units in
            body((units.lowerBound * unit)..<(units.upperBound * unit))
        }
    }

    /// Output elements below which an elementwise op stays on the calling thread: a job costs
    /// a few microseconds to hand over, the time of some tens of thousands of elements.
    public static let parallelElementCount = ThreadPool.minimumParallelWork / ThreadPool.workPerElement

    /// `op` over output elements `elements`, a range given by ``split(_:_:)`` (whole rows for
    /// the row layouts, the whole output for the strided one).
    @inline(__always)
    func apply<A, B, C>(elements: Range<Int>, _ lhs: UnsafePointer<A>, _ rhs: UnsafePointer<B>,
                        _ output: UnsafeMutablePointer<C>, _ op: (A, B) -> C) {
        switch layout {
        case .sameShape:
            for i in elements { output[i] = op(lhs[i], rhs[i]) }
        case .scalarLHS:
            let a = lhs[0]
            for i in elements { output[i] = op(a, rhs[i]) }
        case .scalarRHS:
            let b = rhs[0]
            for i in elements { output[i] = op(lhs[i], b) }
        case .rowRHS:
            var o = elements.lowerBound
            while o < elements.upperBound {
                for i in 0..<rowLength { output[o &+ i] = op(lhs[o &+ i], rhs[i]) }
                o &+= rowLength
            }
        case .rowLHS:
            var o = elements.lowerBound
            while o < elements.upperBound {
                for i in 0..<rowLength { output[o &+ i] = op(lhs[i], rhs[o &+ i]) }
                o &+= rowLength
            }
        case .general:
            applyGeneral(lhs, rhs, output, op)
        }
    }

    /// The `.general` layout: a strided walk over the whole output.
    @inline(__always)
    func applyGeneral<A, B, C>(_ lhs: UnsafePointer<A>, _ rhs: UnsafePointer<B>, _ output: UnsafeMutablePointer<C>,
                               _ op: (A, B) -> C) {
        guard elementCount > 0 else { return }
        // Walk the output one innermost run at a time, keeping each operand's offset in
        // step with an odometer (on the stack) over the outer axes. Written inline (not
        // through a closure-taking helper) so `op` is inlined into the inner loops.
        let rank = walkShape.count
        let inner = walkShape[rank - 1]
        let ls = lhsStrides[rank - 1], rs = rhsStrides[rank - 1]
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
                let more = stepOdometer(index.baseAddress!, extents: walkShape, lastAxis: rank - 2) { d, by in
                    l += lhsStrides[d] * by
                    r += rhsStrides[d] * by
                }
                if !more { return }
            }
        }
    }
}
