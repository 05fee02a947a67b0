import TestSupport
import Testing
import Kernels

@Suite struct ComparisonTests {
    @Test(arguments: ComparisonOperator.allCases)
    func comparisonsMatchSwiftOperators(op: ComparisonOperator) {
        var rng = SplitMix64(seed: 11)
        func formula<T: Comparable>(_ a: T, _ b: T) -> UInt8 {
            let r: Bool
            switch op {
            case .equal: r = a == b
            case .notEqual: r = a != b
            case .less: r = a < b
            case .lessEqual: r = a <= b
            case .greater: r = a > b
            case .greaterEqual: r = a >= b
            }
            return r ? 1 : 0
        }
        for _ in 0..<20 {
            let (ls, rs) = randomBroadcastShapes(&rng)
            let plan = BroadcastPlan(lhsShape: ls, rhsShape: rs)!
            // Small value ranges so equality is common.
            let lf = (0..<Shape.elementCount(ls)).map { _ in Float(rng.int(-2...2)) / 2 }
            let rf = (0..<Shape.elementCount(rs)).map { _ in Float(rng.int(-2...2)) / 2 }
            let out = TestBuffer(repeating: UInt8(7), count: plan.elementCount)
            let lfB = TestBuffer(lf), rfB = TestBuffer(rf)
            Elementwise.compare(op, lhs: lfB.constant, rhs: rfB.constant, plan: plan, output: out.pointer)
            #expect(out.array == naiveBroadcast(lf, ls, rf, rs, formula))
            let li = lf.map { Int64($0 * 2) }, ri = rf.map { Int64($0 * 2) }
            let liB = TestBuffer(li), riB = TestBuffer(ri)
            Elementwise.compare(op, lhs: liB.constant, rhs: riB.constant, plan: plan, output: out.pointer)
            #expect(out.array == naiveBroadcast(li, ls, ri, rs, formula))
            let l32 = lf.map { Int32($0 * 2) }, r32 = rf.map { Int32($0 * 2) }
            let l32B = TestBuffer(l32), r32B = TestBuffer(r32)
            Elementwise.compare(op, lhs: l32B.constant, rhs: r32B.constant, plan: plan, output: out.pointer)
            #expect(out.array == naiveBroadcast(l32, ls, r32, rs, formula))
        }
    }

    @Test func logicalOpsTreatNonZeroAsTrue() {
        let a = TestBuffer<UInt8>([0, 0, 2, 1]), b = TestBuffer<UInt8>([0, 5, 0, 1])
        let plan = BroadcastPlan(lhsShape: [4], rhsShape: [4])!
        let out = TestBuffer(repeating: UInt8(9), count: 4)
        Elementwise.logical(.and, lhs: a.constant, rhs: b.constant, plan: plan, output: out.pointer)
        #expect(out.array == [0, 0, 0, 1])
        Elementwise.logical(.or, lhs: a.constant, rhs: b.constant, plan: plan, output: out.pointer)
        #expect(out.array == [0, 1, 1, 1])
        Elementwise.logicalNot(input: a.constant, output: out.pointer, count: 4)
        #expect(out.array == [1, 1, 0, 0])
    }
}
