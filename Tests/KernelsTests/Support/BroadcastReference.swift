import TestSupport
import Kernels

/// Random operand shapes that broadcast together, rank 0 to 6, from the same output shape with
/// some axes set to 1 and some leading axes dropped.
func randomBroadcastShapes(_ rng: inout SplitMix64, maxRank: Int = 6) -> ([Int], [Int]) {
    let rank = rng.int(0...maxRank)
    let out = (0..<rank).map { _ in rng.int(1...4) }
    func operand(_ rng: inout SplitMix64) -> [Int] {
        let dropped = rng.int(0...rank)
        return out.dropFirst(dropped).map { rng.int(0...2) == 0 ? 1 : $0 }
    }
    return (operand(&rng), operand(&rng))
}

/// Applies `op` by computing each output multi-index and reading each operand at that index
/// modulo its extent: the broadcasting rule stated directly.
func naiveBroadcast<A, B, C>(_ lhs: [A], _ lShape: [Int], _ rhs: [B], _ rShape: [Int], _ op: (A, B) -> C) -> [C] {
    let out = Shape.broadcast(lShape, rShape)!
    let l = Shape.extended(lShape, toRank: out.count), r = Shape.extended(rShape, toRank: out.count)
    var result: [C] = []
    for flat in 0..<Shape.elementCount(out) {
        var rem = flat, li = 0, ri = 0, lm = 1, rm = 1
        for d in stride(from: out.count - 1, through: 0, by: -1) {
            let idx = rem % out[d]; rem /= out[d]
            li += (idx % l[d]) * lm; lm *= l[d]
            ri += (idx % r[d]) * rm; rm *= r[d]
        }
        result.append(op(lhs[li], rhs[ri]))
    }
    return result
}
