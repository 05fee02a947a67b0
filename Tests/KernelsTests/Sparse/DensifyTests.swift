import TestSupport
import Testing
import Kernels

@Suite struct DensifyTests {
    func densify(_ values: [Float], _ shape: [Int], _ s: SparsityParameters) throws(KernelError) -> [Float] {
        let v = TestBuffer(values), out = TestBuffer(repeating: Float.nan, count: Shape.elementCount(shape))
        try Densify.apply(values: v.raw, valueCount: values.count, elementSize: 4, denseShape: shape, sparsity: s, output: out.mutableRaw)
        return out.array
    }

    /// Random matrices encoded as CSR rows (dense outer level, compressed inner level) by the
    /// test, then expanded.
    @Test func csrMatricesRoundTrip() throws {
        var rng = SplitMix64(seed: 161)
        for _ in 0..<20 {
            let rows = rng.int(1...6), cols = rng.int(1...6)
            let dense = (0..<(rows * cols)).map { _ in rng.int(0...2) == 0 ? Float(rng.int(1...9)) : 0 }
            var segments = [0], indices: [Int] = [], values: [Float] = []
            for r in 0..<rows {
                for c in 0..<cols where dense[r * cols + c] != 0 { indices.append(c); values.append(dense[r * cols + c]) }
                segments.append(indices.count)
            }
            let s = SparsityParameters(traversalOrder: [0, 1], blockMap: [],
                                       dimensions: [.dense(size: rows), .sparseCSR(segments: segments, indices: indices)])
            #expect(try densify(values, [rows, cols], s) == dense)
        }
    }

    /// A 4x4 matrix in 2x2 blocks with blocks (0, 0) and (1, 1) present.
    @Test func blockSparse() throws {
        let s = SparsityParameters(traversalOrder: [0, 1, 2, 3], blockMap: [0, 1],
                                   dimensions: [.dense(size: 2), .sparseCSR(segments: [0, 1, 2], indices: [0, 1]),
                                                .dense(size: 2), .dense(size: 2)])
        let got = try densify([1, 2, 3, 4, 5, 6, 7, 8], [4, 4], s)
        #expect(got == [1, 2, 0, 0,
                        3, 4, 0, 0,
                        0, 0, 5, 6,
                        0, 0, 7, 8])
    }

    @Test func hostileMetadataThrows() {
        let base: [SparsityParameters.Dimension] = [.dense(size: 2), .sparseCSR(segments: [0, 1, 2], indices: [0, 1])]
        let cases: [SparsityParameters] = [
            SparsityParameters(traversalOrder: [0, 1], blockMap: [], dimensions: [.dense(size: 2), .sparseCSR(segments: [0, 1, 2], indices: [0, 9])]),
            SparsityParameters(traversalOrder: [0, 1], blockMap: [], dimensions: [.dense(size: 2), .sparseCSR(segments: [0, 5, 2], indices: [0, 1])]),
            SparsityParameters(traversalOrder: [0, 1], blockMap: [], dimensions: [.dense(size: 3), .sparseCSR(segments: [0, 1, 2], indices: [0, 1])]),
            SparsityParameters(traversalOrder: [0, 1], blockMap: [], dimensions: [.dense(size: 2), .sparseCSR(segments: [0, 1], indices: [0, 1])]),
            SparsityParameters(traversalOrder: [1, 1], blockMap: [], dimensions: base),
            SparsityParameters(traversalOrder: [0, 1], blockMap: [], dimensions: [.dense(size: 2)]),
            SparsityParameters(traversalOrder: [0, 1, 2], blockMap: [0], dimensions: base + [.dense(size: 3)]),
        ]
        for s in cases {
            #expect(throws: KernelError.self) { _ = try densify([1, 2], [2, 2], s) }
        }
        // Valid metadata but fewer stored values than positions.
        let ok = SparsityParameters(traversalOrder: [0, 1], blockMap: [], dimensions: base)
        #expect(throws: KernelError.self) { _ = try densify([1], [2, 2], ok) }
    }
}
