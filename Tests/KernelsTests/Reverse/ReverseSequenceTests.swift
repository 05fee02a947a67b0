import Testing
import Kernels

@Suite struct ReverseSequenceTests {
    @Test(arguments: [(1, 0), (0, 1), (2, 0), (1, 2)])
    func reversesPrefixesAlongTheSequenceAxis(sequenceAxis: Int, batchAxis: Int) throws {
        let shape = [3, 4, 2]
        let x = (0..<24).map(Float.init)
        let lengths = (0..<shape[batchAxis]).map { Int32($0 % (shape[sequenceAxis] + 1)) }
        let input = TestBuffer(x), l = TestBuffer(lengths), out = TestBuffer(repeating: Float.nan, count: 24)
        try ReverseSequence.run(input: input.raw, shape: shape, elementSize: 4, lengths: l.constant, sequenceAxis: sequenceAxis,
                                batchAxis: batchAxis, output: out.mutableRaw)
        for i in 0..<3 {
            for j in 0..<4 {
                for k in 0..<2 {
                    var source = [i, j, k]
                    let n = Int(lengths[source[batchAxis]])
                    if source[sequenceAxis] < n { source[sequenceAxis] = n - 1 - source[sequenceAxis] }
                    #expect(out.array[(i * 4 + j) * 2 + k] == x[(source[0] * 4 + source[1]) * 2 + source[2]])
                }
            }
        }
    }

    @Test(arguments: [Int64(5), -1])
    func lengthOutsideTheAxisThrows(bad: Int64) {
        let input = TestBuffer<UInt8>([UInt8](repeating: 1, count: 8)), l = TestBuffer<Int64>([1, bad])
        let out = TestBuffer(repeating: UInt8(0), count: 8)
        #expect(throws: KernelError.indexOutOfRange(index: Int(bad), bound: 5, position: 1)) {
            try ReverseSequence.run(input: input.raw, shape: [2, 4], elementSize: 1, lengths: l.constant, sequenceAxis: 1,
                                    batchAxis: 0, output: out.mutableRaw)
        }
    }
}
