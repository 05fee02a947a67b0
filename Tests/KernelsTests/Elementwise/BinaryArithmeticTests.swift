import TestSupport
import Testing
import Foundation
import Kernels

/// The scalar meaning of each float op, from the TFLite definitions.
func floatFormula(_ op: BinaryOperator) -> (Float, Float) -> Float {
    switch op {
    case .add: return { $0 + $1 }
    case .subtract: return { $0 - $1 }
    case .multiply: return { $0 * $1 }
    case .divide: return { $0 / $1 }
    case .maximum: return { max($0, $1) }
    case .minimum: return { min($0, $1) }
    case .squaredDifference: return { ($0 - $1) * ($0 - $1) }
    case .power: return { Float(Foundation.pow(Double($0), Double($1))) }
    case .floorDivide: return { Float(Foundation.floor(Double($0) / Double($1))) }
    case .floorModulo: return { a, b in
        // a - floor(a / b) * b, computed in double.
        let q = Foundation.floor(Double(a) / Double(b))
        return Float(Double(a) - q * Double(b))
    }
    }
}

@Suite struct BinaryArithmeticTests {
    /// Outputs large enough to be split across threads (rows of 7, 37 and 1000 elements, an
    /// odd total, every layout) equal the scalar formula element for element, for ADD, MUL with
    /// a fused ReLU6 and PRELU, on a pool of three threads.
    @Test(arguments: [[[3, 99, 101, 7], [7]], [[101, 7], [2, 3, 99, 101, 7]], [[2, 37, 997], [2, 37, 997]],
                      [[1], [40_000]], [[40_001], []], [[37, 1000, 2], [37, 1, 2]]])
    func splitAcrossThreadsMatchesFormula(shapes: [[Int]]) {
        let pool = ThreadPool(threadCount: 3)
        let plan = BroadcastPlan(lhsShape: shapes[0], rhsShape: shapes[1])!
        #expect(plan.elementCount >= BroadcastPlan.parallelElementCount)
        var rng = SplitMix64(seed: 7)
        let lhs = (0..<shapes[0].reduce(1, *)).map { _ in Float.random(in: -4...4, using: &rng) }
        let rhs = (0..<shapes[1].reduce(1, *)).map { _ in Float.random(in: -4...4, using: &rng) }
        let lhsIndex = broadcastIndex(shapes[0], into: plan.outputShape), rhsIndex = broadcastIndex(shapes[1], into: plan.outputShape)
        var sum = [Float](repeating: .nan, count: plan.elementCount), product = sum, prelu = sum
        lhs.withUnsafeBufferPointer { l in rhs.withUnsafeBufferPointer { r in
            sum.withUnsafeMutableBufferPointer {
                Elementwise.binary(.add, lhs: l.baseAddress!, rhs: r.baseAddress!, plan: plan,
                                   activation: ActivationRange(min: -.infinity, max: .infinity),
                                   output: $0.baseAddress!, pool: pool)
            }
            product.withUnsafeMutableBufferPointer {
                Elementwise.binary(.multiply, lhs: l.baseAddress!, rhs: r.baseAddress!, plan: plan,
                                   activation: ActivationRange(min: 0, max: 6), output: $0.baseAddress!, pool: pool)
            }
            prelu.withUnsafeMutableBufferPointer {
                Activations.prelu(input: l.baseAddress!, alpha: r.baseAddress!, plan: plan, output: $0.baseAddress!, pool: pool)
            }
        }}
        var mismatches = 0
        for i in 0..<plan.elementCount {
            let a = lhs[lhsIndex[i]], b = rhs[rhsIndex[i]]
            if sum[i] != a + b || product[i] != min(max(a * b, 0), 6) || prelu[i] != (a >= 0 ? a : b * a) { mismatches += 1 }
        }
        #expect(mismatches == 0, "\(shapes)")
    }

    /// For each output element (row-major over `output`), the index of the element of an
    /// operand of shape `shape` that NumPy broadcasting pairs with it.
    private func broadcastIndex(_ shape: [Int], into output: [Int]) -> [Int] {
        let padded = [Int](repeating: 1, count: output.count - shape.count) + shape
        var strides = [Int](repeating: 0, count: output.count), step = 1
        for d in (0..<output.count).reversed() {
            strides[d] = padded[d] == 1 ? 0 : step
            step *= padded[d]
        }
        var result = [Int](), index = [Int](repeating: 0, count: output.count)
        for _ in 0..<output.reduce(1, *) {
            result.append(zip(index, strides).reduce(0) { $0 + $1.0 * $1.1 })
            var d = output.count - 1
            while d >= 0 {
                index[d] += 1
                if index[d] < output[d] { break }
                index[d] = 0
                d -= 1
            }
        }
        return result
    }

    @Test func planPicksFastLayouts() {
        #expect(BroadcastPlan(lhsShape: [2, 3], rhsShape: [2, 3])?.layout == .sameShape)
        #expect(BroadcastPlan(lhsShape: [], rhsShape: [2, 3])?.layout == .scalarLHS)
        #expect(BroadcastPlan(lhsShape: [2, 3], rhsShape: [1, 1])?.layout == .scalarRHS)
        #expect(BroadcastPlan(lhsShape: [2, 1], rhsShape: [1, 3])?.layout == .general)
        #expect(BroadcastPlan(lhsShape: [2, 1], rhsShape: [1, 3])?.outputShape == [2, 3])
        #expect(BroadcastPlan(lhsShape: [2, 3], rhsShape: [4]) == nil)
        #expect(BroadcastPlan(lhsShape: [0, 3], rhsShape: [1])?.elementCount == 0)
        #expect(BroadcastPlan(lhsShape: [1, 6, 5, 4], rhsShape: [1, 1, 4])?.layout == .rowRHS)
        #expect(BroadcastPlan(lhsShape: [1, 6, 5, 4], rhsShape: [1, 1, 4])?.rowLength == 4)
        #expect(BroadcastPlan(lhsShape: [5, 4], rhsShape: [2, 3, 5, 4])?.layout == .rowLHS)
        #expect(BroadcastPlan(lhsShape: [5, 4], rhsShape: [2, 3, 5, 4])?.rowLength == 20)
        #expect(BroadcastPlan(lhsShape: [2, 3, 4], rhsShape: [2, 1, 4])?.layout == .general)
    }

    /// The row layouts and merged axes on the shapes models produce (per-channel vectors against
    /// NHWC tensors, in either operand position, with unit axes anywhere) against the formula.
    @Test(arguments: [
        ([1, 6, 5, 4], [1, 1, 4]), ([1, 6, 5, 4], [4]), ([2, 3, 5, 4], [5, 4]), ([1, 1, 1, 7], [1, 3, 2, 7]),
        ([3, 1, 4], [3, 2, 4]), ([2, 1, 3, 1], [2, 5, 3, 1]), ([1, 1], [9, 1]), ([4, 1, 1, 6], [1, 1, 1, 6]),
    ])
    func rowAndMergedLayoutsMatchFormula(shapes: ([Int], [Int])) {
        var rng = SplitMix64(seed: 7)
        for (ls, rs) in [shapes, (shapes.1, shapes.0)] {
            let lhs = rng.floats(Shape.elementCount(ls)), rhs = rng.floats(Shape.elementCount(rs))
            let plan = BroadcastPlan(lhsShape: ls, rhsShape: rs)!
            let out = TestBuffer(repeating: Float.nan, count: plan.elementCount)
            let lB = TestBuffer(lhs), rB = TestBuffer(rhs)
            withExtendedLifetime((lB, rB)) {
                Elementwise.binary(.subtract, lhs: lB.constant, rhs: rB.constant, plan: plan,
                                   activation: FusedActivation.none.floatRange!, output: out.pointer)
            }
            #expect(out.array == naiveBroadcast(lhs, ls, rhs, rs, floatFormula(.subtract)), "\(ls) \(rs) \(plan.layout)")
        }
    }

    /// Every float op on random broadcast shapes of rank 0 to 6 against the formula applied
    /// through explicit index arithmetic.
    @Test(arguments: BinaryOperator.allCases)
    func floatOpsMatchFormulasUnderBroadcasting(op: BinaryOperator) {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<60 {
            let (ls, rs) = randomBroadcastShapes(&rng)
            let positive = op == .power
            var lhs = rng.floats(Shape.elementCount(ls), in: positive ? 0.1...3 : -5...5)
            var rhs = rng.floats(Shape.elementCount(rs), in: positive ? -2...2 : -5...5)
            if op == .divide || op == .floorDivide || op == .floorModulo {
                rhs = rhs.map { abs($0) < 0.25 ? 0.5 : $0 }
                lhs = lhs.map { $0.rounded() / 4 }
            }
            let plan = BroadcastPlan(lhsShape: ls, rhsShape: rs)!
            let out = TestBuffer(repeating: Float.nan, count: plan.elementCount)
            let lB = TestBuffer(lhs), rB = TestBuffer(rhs)
            Elementwise.binary(op, lhs: lB.constant, rhs: rB.constant, plan: plan,
                               activation: FusedActivation.none.floatRange!, output: out.pointer)
            let want = naiveBroadcast(lhs, ls, rhs, rs, floatFormula(op))
            let err = zip(out.array, want).map { abs($0 - $1) / max(1, abs($1)) }.max() ?? 0
            #expect(err <= 1e-5, "\(op) \(ls) \(rs)")
        }
    }

    @Test func fusedActivationClamps() {
        let plan = BroadcastPlan(lhsShape: [4], rhsShape: [4])!
        let out = TestBuffer(repeating: Float.nan, count: 4)
        let lB = TestBuffer<Float>([-3, 1, 5, 9]), rB = TestBuffer<Float>([0, 0, 0, 0])
        Elementwise.binary(.add, lhs: lB.constant, rhs: rB.constant,
                           plan: plan, activation: FusedActivation.relu6.floatRange!, output: out.pointer)
        #expect(out.array == [0, 1, 5, 6])
    }

    /// Integer FLOOR_DIV / FLOOR_MOD on every sign combination: floor(a / b) from real
    /// division, and the remainder a - b * floor(a / b) (which carries the divisor's sign).
    @Test func integerFloorOpsFollowSignRules() {
        let pairs: [(Int32, Int32)] = [(7, 2), (-7, 2), (7, -2), (-7, -2), (6, 3), (-6, 3), (0, -5), (Int32.min, -1), (5, 0)]
        let lhs = TestBuffer(pairs.map { $0.0 }), rhs = TestBuffer(pairs.map { $0.1 })
        let plan = BroadcastPlan(lhsShape: [pairs.count], rhsShape: [pairs.count])!
        let div = TestBuffer(repeating: Int32(99), count: pairs.count), mod = TestBuffer(repeating: Int32(99), count: pairs.count)
        let all = ActivationRange<Int32>(min: .min, max: .max)
        Elementwise.binary(.floorDivide, lhs: lhs.constant, rhs: rhs.constant, plan: plan, activation: all, output: div.pointer)
        Elementwise.binary(.floorModulo, lhs: lhs.constant, rhs: rhs.constant, plan: plan, activation: all, output: mod.pointer)
        for (i, (a, b)) in pairs.enumerated() {
            if b == 0 {
                #expect(div.array[i] == 0 && mod.array[i] == 0)
                continue
            }
            let q = Foundation.floor(Double(a) / Double(b))
            let qWrapped = q > Double(Int32.max) ? Int32.min : Int32(q)   // min / -1 wraps
            #expect(div.array[i] == qWrapped, "\(a) // \(b)")
            #expect(Double(mod.array[i]) == Double(a) - Double(b) * q, "\(a) % \(b)")
        }
    }

    @Test func integerArithmeticMatchesFormulas() {
        var rng = SplitMix64(seed: 9)
        let all = ActivationRange<Int32>(min: .min, max: .max)
        for op in BinaryOperator.allCases {
            let (ls, rs) = randomBroadcastShapes(&rng, maxRank: 4)
            let lhs = (0..<Shape.elementCount(ls)).map { _ in Int32(rng.int(-20...20)) }
            let rhs = (0..<Shape.elementCount(rs)).map { _ in Int32(op == .power ? rng.int(0...5) : rng.int(-20...20)) }
            let plan = BroadcastPlan(lhsShape: ls, rhsShape: rs)!
            let out = TestBuffer(repeating: Int32(0), count: plan.elementCount)
            let lB = TestBuffer(lhs), rB = TestBuffer(rhs)
            Elementwise.binary(op, lhs: lB.constant, rhs: rB.constant, plan: plan, activation: all, output: out.pointer)
            let want = naiveBroadcast(lhs, ls, rhs, rs) { (a: Int32, b: Int32) -> Int32 in
                let x = Int64(a), y = Int64(b)
                switch op {
                case .add: return Int32(x + y)
                case .subtract: return Int32(x - y)
                case .multiply: return Int32(x * y)
                case .divide: return y == 0 ? 0 : Int32(x / y)
                case .maximum: return Int32(max(x, y))
                case .minimum: return Int32(min(x, y))
                case .squaredDifference: return Int32((x - y) * (x - y))
                case .power: return Int32(Foundation.pow(Double(x), Double(y)))
                case .floorDivide: return y == 0 ? 0 : Int32(Foundation.floor(Double(x) / Double(y)))
                case .floorModulo: return y == 0 ? 0 : Int32(x - y * Int64(Foundation.floor(Double(x) / Double(y))))
                }
            }
            #expect(out.array == want, "\(op)")
        }
    }
}
