import TestSupport
import Testing
import Kernels

@Suite struct TopKTests {
    @Test func matchesStableSortDescending() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<20 {
            let rows = rng.int(1...3), length = rng.int(1...9), k = rng.int(0...length)
            // Few distinct values, so ties are common.
            let x = (0..<rows * length).map { _ in Float(rng.int(-3...3)) }
            let input = TestBuffer(x)
            let values = TestBuffer(repeating: Float.nan, count: rows * k), indices = TestBuffer(repeating: Int32(-1), count: rows * k)
            TopK.run(input: input.constant, rows: rows, rowLength: length, k: k, values: values.pointer, indices: indices.pointer)
            for r in 0..<rows {
                let row = Array(x[r * length..<(r + 1) * length])
                // Reference: indices ordered by (value descending, index ascending).
                let order = row.indices.sorted { (row[$0], -$0) > (row[$1], -$1) }
                #expect(Array(indices.array[r * k..<(r + 1) * k]) == order.prefix(k).map(Int32.init))
                #expect(Array(values.array[r * k..<(r + 1) * k]) == order.prefix(k).map { row[$0] })
            }
        }
    }

    @Test func int64IndicesAndIntegerValues() {
        let input = TestBuffer<Int8>([5, -2, 9, 9, 0])
        let values = TestBuffer(repeating: Int8(0), count: 3), indices = TestBuffer(repeating: Int64(0), count: 3)
        TopK.run(input: input.constant, rows: 1, rowLength: 5, k: 3, values: values.pointer, indices: indices.pointer)
        #expect(values.array == [9, 9, 5])
        #expect(indices.array == [2, 3, 0])
    }
}
