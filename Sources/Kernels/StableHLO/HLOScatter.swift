/// What STABLEHLO_SCATTER's update computation does with an operand element `a` and an update
/// `b`: the bodies LiteRT recognises.
public enum ScatterCombiner: Sendable, Equatable {
    /// A body with no operators: `b` replaces `a`.
    case replace
    case add, multiply, maximum, minimum
}

/// STABLEHLO_SCATTER with LiteRT's semantics: updates are applied one element at a time in
/// row-major order of the updates tensor (so repeated indices combine in that order), and an
/// update element whose target lies outside the operand is skipped.
public struct HLOScatterPlan: Sendable {
    public let operandShape: [Int]
    let vectors: IndexVectorLayout
    /// The operand axis each index-vector component addresses.
    let componentAxes: [Int]
    public let updatesShape: [Int]
    /// Per updates axis: the operand axis it moves along (window axes), or -1 (batch axes).
    let windowAxis: [Int]
    /// Per updates axis: the batch position each index adds (zero along window axes).
    let batchTables: [[Int]]

    /// The options must be valid (prepare checks): `updateWindowDims` and `insertedWindowDims`
    /// together as many as the operand's axes, `scatterDimsToOperandDims` as long as an index
    /// vector, and the updates' other axes the indices' batch axes.
    public init(operandShape: [Int], indicesShape: [Int], updatesShape: [Int], updateWindowDims: [Int],
                insertedWindowDims: [Int], scatterDimsToOperandDims: [Int], indexVectorDim: Int) {
        self.operandShape = operandShape
        self.updatesShape = updatesShape
        vectors = IndexVectorLayout(indicesShape: indicesShape, indexVectorDim: indexVectorDim)
        componentAxes = scatterDimsToOperandDims
        // The k-th listed window axis of the updates moves along the k-th operand axis that is
        // not an inserted one (LiteRT takes the list in its given order).
        let windowTargets = operandShape.indices.filter { !insertedWindowDims.contains($0) }
        let batchStrides = Shape.strides(vectors.batchShape)
        var targets = [Int](repeating: -1, count: updatesShape.count), tables: [[Int]] = []
        for (k, d) in updateWindowDims.enumerated() { targets[d] = windowTargets[k] }
        var nextBatch = 0
        for d in updatesShape.indices {
            if targets[d] >= 0 {
                tables.append([Int](repeating: 0, count: updatesShape[d]))
            } else {
                let s = batchStrides[nextBatch]
                nextBatch += 1
                tables.append((0..<updatesShape[d]).map { $0 * s })
            }
        }
        windowAxis = targets
        batchTables = tables
    }

    /// Scratch `starts` needs this many elements: the start index of every batch position.
    public var scratchCount: Int { vectors.batchCount * operandShape.count }

    /// Applies `updates` to `output`, which already holds the operand.
    public func run<T: HLOArithmetic, I: BinaryInteger>(_ combiner: ScatterCombiner, indices: UnsafePointer<I>,
                                                       updates: UnsafePointer<T>, output: UnsafeMutablePointer<T>,
                                                       starts: UnsafeMutablePointer<Int64>) {
        switch combiner {
        case .replace: apply(indices, updates, output, starts) { _, b in b }
        case .add: apply(indices, updates, output, starts) { T.hloAdd($0, $1) }
        case .multiply: apply(indices, updates, output, starts) { T.hloMultiply($0, $1) }
        case .maximum: apply(indices, updates, output, starts) { T.hloMaximum($0, $1) }
        case .minimum: apply(indices, updates, output, starts) { T.hloMinimum($0, $1) }
        }
    }

    @inline(__always)
    private func apply<T, I: BinaryInteger>(_ indices: UnsafePointer<I>, _ updates: UnsafePointer<T>, _ output: UnsafeMutablePointer<T>,
                                            _ starts: UnsafeMutablePointer<Int64>, _ combine: (T, T) -> T) {
        let count = Shape.elementCount(updatesShape), operandCount = Shape.elementCount(operandShape)
        guard count > 0, operandCount > 0 else { return }
        let rank = operandShape.count, updatesRank = updatesShape.count
        vectors.forEachVector { b, base in
            let start = starts + b * rank
            start.initialize(repeating: 0, count: rank)
            for (k, axis) in componentAxes.enumerated() { start[axis] = vectors.component(indices, base, k) }
        }
        let operandStrides = Shape.strides(operandShape)
        withUnsafeTemporaryAllocation(of: Int.self, capacity: max(updatesRank + rank, 1)) { scratch in
            let index = scratch.baseAddress!, window = index + updatesRank
            scratch.initialize(repeating: 0)
            for u in 0..<count {
                var batch = 0
                for d in 0..<updatesRank { batch += batchTables[d][index[d]] }
                for a in 0..<rank { window[a] = 0 }
                for d in 0..<updatesRank where windowAxis[d] >= 0 { window[windowAxis[d]] = index[d] }
                let start = starts + batch * rank
                var flat = 0, inside = true
                for a in 0..<rank {
                    let (target, overflow) = start[a].addingReportingOverflow(Int64(window[a]))
                    guard !overflow, target >= 0, target < Int64(operandShape[a]) else { inside = false; break }
                    flat += Int(target) * operandStrides[a]
                }
                if inside { output[flat] = combine(output[flat], updates[u]) }
                stepOdometer(index, extents: updatesShape, lastAxis: updatesRank - 1)
            }
        }
    }
}
