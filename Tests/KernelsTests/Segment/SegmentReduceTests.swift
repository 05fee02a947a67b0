import TestSupport
import Testing
import Kernels

@Suite struct SegmentReduceTests {
    @Test(arguments: SegmentReduction.allCases)
    func matchesGroupingReference(reduction: SegmentReduction) throws {
        var rng = SplitMix64(seed: 19)
        for _ in 0..<10 {
            let rows = rng.int(0...8), inner = rng.int(1...3), segments = rng.int(1...5)
            let ids = (0..<rows).map { _ in Int32(rng.int(-1...segments - 1)) }
            let data = rng.floats(rows * inner)
            let d = TestBuffer(data), i = TestBuffer(ids), out = TestBuffer(repeating: Float.nan, count: segments * inner)
            try SegmentReduce.run(reduction, data: d.constant, ids: i.constant, idCount: rows, inner: inner, segments: segments,
                                  output: out.pointer)
            for s in 0..<segments {
                for j in 0..<inner {
                    let members = ids.indices.filter { ids[$0] == Int32(s) }.map { data[$0 * inner + j] }
                    let want: Float
                    switch reduction {
                    case .sum: want = members.reduce(0, +)
                    case .product: want = members.reduce(1, *)
                    case .maximum: want = members.max() ?? -.greatestFiniteMagnitude
                    case .minimum: want = members.min() ?? .greatestFiniteMagnitude
                    }
                    #expect(abs(out.array[s * inner + j] - want) <= 1e-5, "segment \(s) column \(j)")
                }
            }
        }
    }

    @Test func idAtOrPastSegmentCountThrows() {
        let d = TestBuffer<Int32>([1, 2, 3]), i = TestBuffer<Int32>([0, 2, 1]), out = TestBuffer(repeating: Int32(0), count: 2)
        #expect(throws: KernelError.indexOutOfRange(index: 2, bound: 2, position: 1)) {
            try SegmentReduce.run(.sum, data: d.constant, ids: i.constant, idCount: 3, inner: 1, segments: 2, output: out.pointer)
        }
    }

    @Test func integerProductsWrap() throws {
        let d = TestBuffer<Int32>([1 << 20, 1 << 20]), i = TestBuffer<Int32>([0, 0]), out = TestBuffer(repeating: Int32(0), count: 1)
        try SegmentReduce.run(.product, data: d.constant, ids: i.constant, idCount: 2, inner: 1, segments: 1, output: out.pointer)
        #expect(out.array == [Int32(1 << 20) &* Int32(1 << 20)])
    }
}
