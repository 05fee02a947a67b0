import TestSupport
import Testing
import Kernels

@Suite struct DensifyFuzzTests {
    /// Random, mostly invalid sparsity metadata (wrong lengths, out-of-range and negative
    /// segments and indices, bad block maps) must either expand within the output buffer or
    /// throw; a crash or an out-of-bounds write fails the run. The output buffer carries guard
    /// elements on both sides that must stay untouched.
    @Test func randomMetadataNeverEscapesTheOutput() {
        var rng = SplitMix64(seed: 171)
        var expanded = 0, rejected = 0
        for _ in 0..<3000 {
            let rank = rng.int(1...3)
            let shape = (0..<rank).map { _ in rng.int(1...4) }
            let blocks = rng.int(0...1)
            let levels = rank + blocks + (rng.int(0...9) == 0 ? 1 : 0)
            var order = Array(0..<rank).shuffled(using: &rng) + Array(rank..<(rank + blocks))
            if rng.int(0...9) == 0 { order = (0..<levels).map { _ in rng.int(-1...levels) } }
            let blockMap = (0..<blocks).map { _ in rng.int(-1...rank) }
            let dims: [SparsityParameters.Dimension] = (0..<levels).map { _ in
                if rng.int(0...1) == 0 { return .dense(size: rng.int(-1...5)) }
                let segments = (0..<rng.int(0...6)).map { _ in rng.int(-2...8) }
                let indices = (0..<rng.int(0...8)).map { _ in rng.int(-2...6) }
                return .sparseCSR(segments: segments, indices: indices)
            }
            let sparsity = SparsityParameters(traversalOrder: order, blockMap: blockMap, dimensions: dims)
            let valueCount = rng.int(0...20)
            let values = TestBuffer((0..<valueCount).map { Float($0 + 1) })
            let count = Shape.elementCount(shape), guardCount = 8
            let out = TestBuffer(repeating: Float(-7), count: count + 2 * guardCount)
            do {
                try Densify.apply(values: values.raw, valueCount: valueCount, elementSize: 4, denseShape: shape,
                                  sparsity: sparsity, output: UnsafeMutableRawPointer(out.pointer + guardCount))
                expanded += 1
            } catch {
                rejected += 1
            }
            let a = out.array
            #expect(a[..<guardCount].allSatisfy { $0 == -7 } && a[(guardCount + count)...].allSatisfy { $0 == -7 })
        }
        // Both outcomes occur, so the generator reaches valid and invalid metadata.
        #expect(expanded > 0 && rejected > 0)
    }

    /// Random indices for GATHER and GATHER_ND either copy in range or throw.
    @Test func randomIndicesNeverEscapeTheInput() {
        var rng = SplitMix64(seed: 181)
        var thrown = 0
        for _ in 0..<2000 {
            let shape = (0..<rng.int(1...3)).map { _ in rng.int(1...4) }
            let axis = rng.int(0...(shape.count - 1))
            let idx = (0..<rng.int(1...5)).map { _ in Int32(rng.int(-3...6)) }
            let input = TestBuffer((0..<Shape.elementCount(shape)).map { Float($0) }), indices = TestBuffer(idx)
            let outShape = Gather.outputShape(inputShape: shape, indicesShape: [idx.count], axis: axis, batchDims: 0)
            let out = TestBuffer(repeating: Float(-1), count: Shape.elementCount(outShape))
            do {
                try Gather.apply(input: input.raw, inputShape: shape, indices: indices.constant, indicesShape: [idx.count],
                                 axis: axis, batchDims: 0, elementSize: 4, output: out.mutableRaw)
                #expect(idx.allSatisfy { $0 >= 0 && Int($0) < shape[axis] })
            } catch {
                thrown += 1
                #expect(idx.contains { $0 < 0 || Int($0) >= shape[axis] })
            }
        }
        #expect(thrown > 0)
    }
}
