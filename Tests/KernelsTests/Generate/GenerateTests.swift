import Testing
import Kernels

@Suite struct GenerateTests {
    @Test func integerRangeCountsMatchTheFormula() {
        for (s, l, d) in [(0, 10, 3), (10, 0, -3), (5, 5, 1), (-4, 4, 8), (0, 1, 100), (3, -7, -1)] as [(Int64, Int64, Int64)] {
            let want = Int(((abs(l - s) + abs(d) - 1) / abs(d)))
            #expect(RangeFill.count(start: s, limit: l, delta: d) == want)
            let out = TestBuffer(repeating: Int64(0), count: want)
            RangeFill.run(start: s, delta: d, count: want, output: out.pointer)
            #expect(out.array == (0..<want).map { s + Int64($0) * d })
        }
        #expect(RangeFill.count(start: Int64(0), limit: 5, delta: 0) == nil)
        #expect(RangeFill.count(start: Int64(0), limit: 5, delta: -1) == nil)
        #expect(RangeFill.count(start: Int64(5), limit: 0, delta: 1) == nil)
        #expect(RangeFill.count(start: Int64.min, limit: .max, delta: 1) == nil)
    }

    @Test func floatRangeAccumulatesDelta() {
        #expect(RangeFill.count(start: 0, limit: 1, delta: 0.3) == 4)
        #expect(RangeFill.count(start: 1, limit: -1, delta: -0.5) == 4)
        #expect(RangeFill.count(start: 0, limit: .infinity, delta: 1) == nil)
        #expect(RangeFill.count(start: 0, limit: .nan, delta: 1) == nil)
        let out = TestBuffer(repeating: Float.nan, count: 4)
        RangeFill.run(start: 0, delta: 0.3, count: 4, output: out.pointer)
        var value: Float = 0, want: [Float] = []
        for _ in 0..<4 { want.append(value); value += 0.3 }
        #expect(out.array == want)
    }

    @Test func fillAndZero() {
        let out = TestBuffer(repeating: Int16(0), count: 5)
        Fill.run(value: Int16(-3), count: 5, output: out.pointer)
        #expect(out.array == [Int16](repeating: -3, count: 5))
        let f = TestBuffer(repeating: Float.nan, count: 3)
        Fill.zero(byteCount: 12, output: f.mutableRaw)
        #expect(f.array == [0, 0, 0])
    }
}
