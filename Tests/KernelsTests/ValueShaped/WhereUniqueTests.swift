import TestSupport
import Testing
import Kernels

@Suite struct WhereUniqueTests {
    @Test func whereListsCoordinatesInRowMajorOrder() {
        var rng = SplitMix64(seed: 37)
        for rank in 0...4 {
            let shape = (0..<rank).map { _ in rng.int(0...3) }
            let x = (0..<Shape.elementCount(shape)).map { _ in UInt8(rng.int(0...1) * rng.int(1...3)) }
            let input = TestBuffer(x)
            let n = Where.count(input: input.constant, elementCount: x.count)
            #expect(n == x.filter { $0 != 0 }.count)
            let out = TestBuffer(repeating: Int64(-1), count: n * rank)
            Where.run(input: input.constant, shape: shape, output: out.pointer)
            var want: [Int64] = []
            for flat in x.indices where x[flat] != 0 {
                var rest = flat, coordinate: [Int64] = []
                for d in stride(from: rank - 1, through: 0, by: -1) { coordinate.insert(Int64(rest % shape[d]), at: 0); rest /= shape[d] }
                want += coordinate
            }
            #expect(out.array == want)
        }
        let f = TestBuffer<Float>([0, -0.0, .nan, 2])
        #expect(Where.count(input: f.constant, elementCount: 4) == 2)
    }

    @Test func uniqueKeepsFirstAppearanceOrder() {
        let x: [Float] = [3, 1, 3, -0.0, 0, 1, 7]
        let input = TestBuffer(x), idx = TestBuffer(repeating: Int64(-1), count: x.count)
        let values = Unique.run(input: input.constant, count: x.count, indices: idx.pointer)
        #expect(values == [3, 1, -0.0, 7])
        #expect(idx.array == [0, 1, 0, 2, 2, 1, 3])
        let empty = TestBuffer<Int32>([]), none = TestBuffer<Int32>([])
        #expect(Unique.run(input: empty.constant, count: 0, indices: none.pointer).isEmpty)
    }
}
