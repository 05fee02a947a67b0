import TestSupport
import Foundation
import Testing
import Kernels

@Suite struct Atan2AddNTests {
    @Test func atan2CoversEveryQuadrantAndBroadcasts() {
        var rng = SplitMix64(seed: 29)
        for _ in 0..<10 {
            let (ls, rs) = randomBroadcastShapes(&rng)
            let plan = BroadcastPlan(lhsShape: ls, rhsShape: rs)!
            let y = rng.floats(Shape.elementCount(ls), in: -2...2), x = rng.floats(Shape.elementCount(rs), in: -2...2)
            let yb = TestBuffer(y), xb = TestBuffer(x), out = TestBuffer(repeating: Float.nan, count: plan.elementCount)
            Atan2.run(y: yb.constant, x: xb.constant, plan: plan, output: out.pointer)
            let want = naiveBroadcast(y, ls, x, rs) { Float(Foundation.atan2(Double($0), Double($1))) }
            #expect(maxAbsDifference(out.array, want) <= 1e-6)
        }
        // Signed zeros pick the half-plane, as IEEE atan2 does.
        let y = TestBuffer<Float>([0, -0.0, 0, -0.0]), x = TestBuffer<Float>([-1, -1, 1, 1]), out = TestBuffer(repeating: Float.nan, count: 4)
        Atan2.run(y: y.constant, x: x.constant, plan: BroadcastPlan(lhsShape: [4], rhsShape: [4])!, output: out.pointer)
        let pi = Float(Double.pi) // the float nearest pi (Float.pi rounds down)
        #expect(out.array == [pi, -pi, 0, -0.0])
    }

    @Test func addNSumsInOrderAndWrapsIntegers() {
        let a = TestBuffer<Int32>([1, .max, 0]), b = TestBuffer<Int32>([2, 1, 0]), c = TestBuffer<Int32>([3, 0, -5])
        let out = TestBuffer(repeating: Int32(0), count: 3)
        AddN.run(inputs: [a.constant, b.constant, c.constant], count: 3, output: out.pointer)
        #expect(out.array == [6, .min, -5])
        let f = TestBuffer<Float>([1.5, -2]), single = TestBuffer(repeating: Float.nan, count: 2)
        AddN.run(inputs: [f.constant], count: 2, output: single.pointer)
        #expect(single.array == [1.5, -2])
    }
}
