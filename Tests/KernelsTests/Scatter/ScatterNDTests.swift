import Testing
import Kernels

@Suite struct ScatterNDTests {
    @Test func slicesAccumulateAtRepeatedPositions() throws {
        // Output [3, 2, 2]; index depth 1 selects [2, 2] slices; row 1 appears twice.
        let indices = TestBuffer<Int32>([1, 0, 1])
        let updates = TestBuffer<Float>((1...12).map(Float.init))
        let out = TestBuffer(repeating: Float.nan, count: 12)
        try ScatterND.run(indices: indices.constant, indexCount: 3, indexDepth: 1, updates: updates.constant,
                          outputShape: [3, 2, 2], output: out.pointer)
        let want: [Float] = [5, 6, 7, 8, 10, 12, 14, 16, 0, 0, 0, 0] // row 1 = updates 0 + updates 2
        #expect(out.array == want)
    }

    @Test func fullDepthIndicesAddScalars() throws {
        let indices = TestBuffer<Int64>([0, 1, 1, 0, 0, 1])
        let updates = TestBuffer<Int32>([5, 7, .max])
        let out = TestBuffer(repeating: Int32(-1), count: 4)
        try ScatterND.run(indices: indices.constant, indexCount: 3, indexDepth: 2, updates: updates.constant,
                          outputShape: [2, 2], output: out.pointer)
        #expect(out.array == [0, 5 &+ .max, 7, 0])
    }

    @Test(arguments: [Int32(3), -1])
    func outOfRangeCoordinateThrows(bad: Int32) {
        let indices = TestBuffer<Int32>([0, 0, 1, bad]), updates = TestBuffer<Float>([1, 2])
        let out = TestBuffer(repeating: Float(0), count: 6)
        #expect(throws: KernelError.indexOutOfRange(index: Int(bad), bound: 3, position: 3)) {
            try ScatterND.run(indices: indices.constant, indexCount: 2, indexDepth: 2, updates: updates.constant,
                              outputShape: [2, 3], output: out.pointer)
        }
    }
}
