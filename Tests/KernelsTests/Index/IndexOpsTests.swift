import Testing
import Kernels

@Suite struct IndexOpsTests {
    @Test(arguments: [0, 1, 2])
    func oneHotPlacesTheNewAxis(position: Int) {
        // Indices of shape [2, 3]; the depth axis goes at `position`.
        let idx: [Int32] = [0, 2, 5, -1, 1, 3]
        let shape = [2, 3], depth = 4
        let outer = Shape.product(shape, 0..<position), inner = Shape.product(shape, position..<2)
        let indices = TestBuffer(idx), out = TestBuffer(repeating: Float.nan, count: 6 * depth)
        OneHot.run(indices: indices.constant, outer: outer, depth: depth, inner: inner, on: 2, off: -1, output: out.pointer)
        var outShape = shape
        outShape.insert(depth, at: position)
        let strides = Shape.strides(outShape)
        for i in 0..<2 {
            for j in 0..<3 {
                for d in 0..<depth {
                    var coordinate = [i, j]
                    coordinate.insert(d, at: position)
                    let flat = zip(coordinate, strides).map { $0 * $1 }.reduce(0, +)
                    // Out-of-range indices (5, -1) give an all-off vector.
                    #expect(out.array[flat] == (Int(idx[i * 3 + j]) == d ? 2 : -1))
                }
            }
        }
    }

    @Test func bucketizeCountsBoundariesAtOrBelow() {
        let boundaries: [Float] = [-1, 0, 0.5, 3]
        let x: [Float] = [-5, -1, -0.5, 0, 0.49, 0.5, 2.9, 3, 100, .infinity, -.infinity]
        let input = TestBuffer(x), out = TestBuffer(repeating: Int32(-1), count: x.count)
        Bucketize.run(input: input.constant, count: x.count, boundaries: boundaries, output: out.pointer)
        #expect(out.array == x.map { v in Int32(boundaries.filter { $0 <= v }.count) })
        Bucketize.run(input: input.constant, count: x.count, boundaries: [], output: out.pointer)
        #expect(out.array.allSatisfy { $0 == 0 })
        // 2^24 + 1 converts to 2^24 as a float, so it lands in the bucket of 2^24.
        let big = TestBuffer<Int64>([16_777_217, 16_777_215, -3]), bigOut = TestBuffer(repeating: Int32(-1), count: 3)
        Bucketize.run(integers: big.constant, count: 3, boundaries: [-3, 16_777_216, 16_777_218], output: bigOut.pointer)
        #expect(bigOut.array == [2, 1, 1])
    }

    @Test func embeddingLookupCopiesRows() throws {
        let table = TestBuffer<Float>((0..<12).map(Float.init)) // 4 rows of 3
        let ids = TestBuffer<Int32>([3, 0, 3, 1]), out = TestBuffer(repeating: Float.nan, count: 12)
        try EmbeddingLookup.run(ids: ids.constant, count: 4, table: table.raw, rows: 4, rowBytes: 12, output: out.mutableRaw)
        #expect(out.array == [9, 10, 11, 0, 1, 2, 9, 10, 11, 3, 4, 5])
    }

    @Test(arguments: [Int32(4), -1])
    func embeddingLookupRejectsOutOfRangeIds(bad: Int32) {
        let table = TestBuffer<Float>([Float](repeating: 1, count: 8))
        let ids = TestBuffer<Int32>([0, bad]), out = TestBuffer(repeating: Float(0), count: 4)
        #expect(throws: KernelError.indexOutOfRange(index: Int(bad), bound: 4, position: 1)) {
            try EmbeddingLookup.run(ids: ids.constant, count: 2, table: table.raw, rows: 4, rowBytes: 8, output: out.mutableRaw)
        }
    }

    @Test(arguments: [[Float(0.5)], [0.5, 0.25, 2]])
    func hybridLookupDequantisesWithoutZeroPoint(scales: [Float]) throws {
        let q: [Int8] = [-128, -1, 0, 1, 127, 3] // 3 rows of 2
        let table = TestBuffer(q), ids = TestBuffer<Int32>([2, 0]), out = TestBuffer(repeating: Float.nan, count: 4)
        try EmbeddingLookup.dequantizing(ids: ids.constant, count: 2, table: table.constant, rows: 3, rowLength: 2, scales: scales,
                                         output: out.pointer)
        func scale(_ row: Int) -> Float { scales.count > 1 ? scales[row] : scales[0] }
        #expect(out.array == [Float(q[4]) * scale(2), Float(q[5]) * scale(2), Float(q[0]) * scale(0), Float(q[1]) * scale(0)])
        let bad = TestBuffer<Int32>([3])
        #expect(throws: KernelError.indexOutOfRange(index: 3, bound: 3, position: 0)) {
            try EmbeddingLookup.dequantizing(ids: bad.constant, count: 1, table: table.constant, rows: 3, rowLength: 2, scales: scales,
                                             output: out.pointer)
        }
    }
}
