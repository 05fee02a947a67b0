import TestSupport
import Testing
import Kernels

@Suite struct BitwiseTests {
    @Test func xorBroadcastsLikeTheFormula() {
        var rng = SplitMix64(seed: 23)
        for _ in 0..<20 {
            let (ls, rs) = randomBroadcastShapes(&rng)
            let plan = BroadcastPlan(lhsShape: ls, rhsShape: rs)!
            let l = (0..<Shape.elementCount(ls)).map { _ in Int32(truncatingIfNeeded: rng.next()) }
            let r = (0..<Shape.elementCount(rs)).map { _ in Int32(truncatingIfNeeded: rng.next()) }
            let lb = TestBuffer(l), rb = TestBuffer(r), out = TestBuffer(repeating: Int32(0), count: plan.elementCount)
            Bitwise.xor(lhs: lb.constant, rhs: rb.constant, plan: plan, output: out.pointer)
            #expect(out.array == naiveBroadcast(l, ls, r, rs) { $0 ^ $1 })
        }
    }

    /// Arithmetic right shift is floor division by a power of two; counts are clamped to
    /// 0...bitWidth-1.
    @Test func rightShiftClampsCountsAndKeepsTheSign() {
        let values: [Int8] = [-128, -7, -1, 0, 1, 7, 127]
        let counts: [Int8] = [-3, 0, 1, 2, 7, 8, 100]
        for count in counts {
            let plan = BroadcastPlan(lhsShape: [values.count], rhsShape: [])!
            let lb = TestBuffer(values), rb = TestBuffer([count]), out = TestBuffer(repeating: Int8(0), count: values.count)
            Bitwise.rightShift(lhs: lb.constant, rhs: rb.constant, plan: plan, output: out.pointer)
            let c = min(max(Int(count), 0), 7)
            let divisor = 1 << c
            let want = values.map { v -> Int8 in
                let q = Int(v) / divisor, floored = (Int(v) % divisor != 0 && v < 0) ? q - 1 : q
                return Int8(floored)
            }
            #expect(out.array == want, "count \(count)")
        }
        let u = TestBuffer<UInt16>([0xFFFF, 0x8000]), n = TestBuffer<UInt16>([15, 20]), out = TestBuffer(repeating: UInt16(9), count: 2)
        Bitwise.rightShift(lhs: u.constant, rhs: n.constant, plan: BroadcastPlan(lhsShape: [2], rhsShape: [2])!, output: out.pointer)
        #expect(out.array == [1, 1])
    }
}
