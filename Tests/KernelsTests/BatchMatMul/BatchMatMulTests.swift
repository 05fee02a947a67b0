import TestSupport
import Testing
import Kernels

@Suite struct BatchMatMulTests {
    @Test func outputShapeBroadcastsBatchDimensions() {
        #expect(BatchMatMul.outputShape(lhsShape: [2, 1, 3, 4], rhsShape: [5, 4, 6], adjointLHS: false, adjointRHS: false) == [2, 5, 3, 6])
        #expect(BatchMatMul.outputShape(lhsShape: [4, 3], rhsShape: [6, 4], adjointLHS: true, adjointRHS: true) == [3, 6])
        #expect(BatchMatMul.outputShape(lhsShape: [3, 4], rhsShape: [5, 6], adjointLHS: false, adjointRHS: false) == nil)
        #expect(BatchMatMul.outputShape(lhsShape: [2, 3, 4], rhsShape: [3, 4, 6], adjointLHS: false, adjointRHS: false) == nil)
    }

    /// Random shapes with broadcast batches and all four adjoint combinations, against a
    /// product over explicitly transposed and broadcast matrices.
    @Test(arguments: 0..<24)
    func referenceMatchesExplicitProduct(seed: Int) {
        var rng = SplitMix64(seed: UInt64(6000 + seed))
        let m = rng.int(1...5), k = rng.int(0...6), n = rng.int(1...5)
        let adjL = seed % 2 == 1, adjR = (seed / 2) % 2 == 1
        let batchRank = rng.int(0...3)
        let full = (0..<batchRank).map { _ in rng.int(1...3) }
        let lBatch = full.map { rng.int(0...1) == 0 ? 1 : $0 }, rBatch = Array(full.map { rng.int(0...1) == 0 ? 1 : $0 }.dropFirst(rng.int(0...batchRank)))
        let lShape = lBatch + (adjL ? [k, m] : [m, k]), rShape = rBatch + (adjR ? [n, k] : [k, n])
        let lhs = rng.floats(Shape.elementCount(lShape)), rhs = rng.floats(Shape.elementCount(rShape))
        let outShape = BatchMatMul.outputShape(lhsShape: lShape, rhsShape: rShape, adjointLHS: adjL, adjointRHS: adjR)!
        let out = TestBuffer(repeating: Float.nan, count: Shape.elementCount(outShape))
        let lB = TestBuffer(lhs), rB = TestBuffer(rhs)
        BatchMatMul.reference(lhs: lB.constant, lhsShape: lShape, adjointLHS: adjL, rhs: rB.constant, rhsShape: rShape,
                              adjointRHS: adjR, output: out.pointer, outputShape: outShape)
        let batchShape = Array(outShape.dropLast(2))
        let lExt = Shape.extended(lBatch, toRank: batchShape.count), rExt = Shape.extended(rBatch, toRank: batchShape.count)
        var want: [Float] = []
        for batch in 0..<Shape.elementCount(batchShape) {
            // Decompose the batch index, then take each operand's index modulo its extent.
            var rem = batch, li = 0, ri = 0, lMul = 1, rMul = 1
            for d in stride(from: batchShape.count - 1, through: 0, by: -1) {
                let idx = rem % batchShape[d]; rem /= batchShape[d]
                li += (idx % lExt[d]) * lMul; lMul *= lExt[d]
                ri += (idx % rExt[d]) * rMul; rMul *= rExt[d]
            }
            for i in 0..<m { for j in 0..<n {
                var acc: Double = 0
                for t in 0..<k {
                    let x = adjL ? lhs[li * m * k + t * m + i] : lhs[li * m * k + i * k + t]
                    let y = adjR ? rhs[ri * k * n + j * k + t] : rhs[ri * k * n + t * n + j]
                    acc += Double(x) * Double(y)
                }
                want.append(Float(acc))
            } }
        }
        #expect(maxAbsDifference(out.array, want) <= reductionTolerance(k))
    }
}
