import TestSupport
import Testing
import Kernels

@Suite struct SelectTests {
    @Test func broadcastsConditionAndValuesFromRank0To6() throws {
        var rng = SplitMix64(seed: 31)
        for _ in 0..<30 {
            let (cs, ab) = randomBroadcastShapes(&rng)
            let (a, b) = (ab, rng.int(0...1) == 0 ? ab : Array(ab.dropFirst(rng.int(0...ab.count))))
            let plan = try #require(Select.Plan(condition: cs, a: a, b: b))
            let cond = (0..<Shape.elementCount(cs)).map { _ in UInt8(rng.int(0...2)) }
            let av = rng.floats(Shape.elementCount(a)), bv = rng.floats(Shape.elementCount(b))
            let cb = TestBuffer(cond), abuf = TestBuffer(av), bbuf = TestBuffer(bv)
            let out = TestBuffer(repeating: Float.nan, count: Shape.elementCount(plan.outputShape))
            Select.run(condition: cb.constant, a: abuf.constant, b: bbuf.constant, plan: plan, output: out.pointer)
            // Reference: broadcast (a, b) into pairs, then pick with the broadcast condition.
            let pairs = naiveBroadcast(av, a, bv, b) { ($0, $1) }
            let abShape = Shape.broadcast(a, b)!
            let want = naiveBroadcast(cond, cs, pairs, abShape) { $0 != 0 ? $1.0 : $1.1 }
            #expect(plan.outputShape == Shape.broadcast(cs, abShape))
            #expect(out.array == want)
        }
    }

    @Test func vectorConditionSelectsRows() throws {
        let plan = try #require(Select.Plan(rowCondition: 3, shape: [3, 2]))
        let c = TestBuffer<UInt8>([1, 0, 1]), a = TestBuffer<Int64>([1, 2, 3, 4, 5, 6]), b = TestBuffer<Int64>([-1, -2, -3, -4, -5, -6])
        let out = TestBuffer(repeating: Int64(0), count: 6)
        Select.run(condition: c.constant, a: a.constant, b: b.constant, plan: plan, output: out.pointer)
        #expect(out.array == [1, 2, -3, -4, 5, 6])
        #expect(Select.Plan(rowCondition: 2, shape: [3, 2]) == nil)
        #expect(Select.Plan(condition: [2], a: [3], b: [3]) == nil)
    }

    @Test func emptyOutputWritesNothing() throws {
        let plan = try #require(Select.Plan(condition: [0, 3], a: [1, 3], b: [3]))
        #expect(plan.outputShape == [0, 3])
        let c = TestBuffer<UInt8>([]), a = TestBuffer<Float>([1, 2, 3]), b = TestBuffer<Float>([4, 5, 6]), out = TestBuffer<Float>([])
        Select.run(condition: c.constant, a: a.constant, b: b.constant, plan: plan, output: out.pointer)
        #expect(out.array.isEmpty)
    }
}
