import TestSupport
import Testing
import Kernels

/// Groups input elements by their output position (the multi-index with reduced axes dropped)
/// and folds each group: the reduction stated directly.
func naiveReduce<T>(_ input: [T], _ shape: [Int], _ axes: Set<Int>, _ initial: T, _ f: (T, T) -> T) -> [T] {
    let outShape = shape.indices.filter { !axes.contains($0) }.map { shape[$0] }
    var out = [T](repeating: initial, count: Shape.elementCount(outShape))
    for flat in 0..<input.count {
        var rem = flat, idx = [Int](repeating: 0, count: shape.count)
        for d in stride(from: shape.count - 1, through: 0, by: -1) { idx[d] = rem % shape[d]; rem /= shape[d] }
        var o = 0
        for d in shape.indices where !axes.contains(d) { o = o * shape[d] + idx[d] }
        out[o] = f(out[o], input[flat])
    }
    return out
}

@Suite struct ReduceTests {
    @Test func planNormalisesAxes() {
        let plan = ReducePlan(inputShape: [2, 3, 4], axes: [-1, 0, 2])!
        #expect(plan.axes == [0, 2])
        #expect(plan.outputShape == [3])
        #expect(plan.reducedCount == 8)
        #expect(ReducePlan(inputShape: [2, 3], axes: [2]) == nil)
        #expect(ReducePlan(inputShape: [2, 3], axes: [])?.outputCount == 6)
    }

    @Test(arguments: ReduceOperator.allCases)
    func floatAndIntegerReductionsMatchGrouping(op: ReduceOperator) {
        var rng = SplitMix64(seed: 51)
        for _ in 0..<40 {
            let rank = rng.int(0...5)
            let shape = (0..<rank).map { _ in rng.int(0...3) == 0 ? 1 : rng.int(1...4) }
            let axes = Set((0..<rank).filter { _ in rng.int(0...1) == 0 })
            let plan = ReducePlan(inputShape: shape, axes: Array(axes))!
            let xs = rng.floats(Shape.elementCount(shape), in: 0.5...1.5)
            let input = TestBuffer(xs), out = TestBuffer(repeating: Float.nan, count: plan.outputCount)
            Reduce.apply(op, input: input.constant, plan: plan, output: out.pointer)
            let want: [Float]
            switch op {
            case .sum: want = naiveReduce(xs, shape, axes, 0, +)
            case .mean: want = naiveReduce(xs, shape, axes, 0, +).map { $0 / Float(plan.reducedCount) }
            case .max: want = naiveReduce(xs, shape, axes, -Float.greatestFiniteMagnitude, max)
            case .min: want = naiveReduce(xs, shape, axes, Float.greatestFiniteMagnitude, min)
            case .product: want = naiveReduce(xs, shape, axes, 1, *)
            }
            let err = zip(out.array, want).map { Swift.abs($0 - $1) / max(1, Swift.abs($1)) }.max() ?? 0
            #expect(err <= 1e-5, "\(shape) \(axes)")

            let ints = (0..<xs.count).map { _ in Int32(rng.int(-9...9)) }
            let iIn = TestBuffer(ints), iOut = TestBuffer(repeating: Int32(0), count: plan.outputCount)
            Reduce.apply(op, input: iIn.constant, plan: plan, output: iOut.pointer)
            let iWant: [Int32]
            switch op {
            case .sum: iWant = naiveReduce(ints, shape, axes, 0, &+)
            case .mean: iWant = naiveReduce(ints, shape, axes, 0, &+).map { $0 / Int32(plan.reducedCount) }
            case .max: iWant = naiveReduce(ints, shape, axes, .min, max)
            case .min: iWant = naiveReduce(ints, shape, axes, .max, min)
            case .product: iWant = naiveReduce(ints, shape, axes, 1, &*)
            }
            #expect(iOut.array == iWant, "\(shape) \(axes)")
        }
    }

    @Test func anyAndAllOverBooleans() {
        // [[0, 3, 0], [1, 1, 1]] reduced over axis 1 and over axis 0.
        let input = TestBuffer<UInt8>([0, 3, 0, 1, 1, 1]), out = TestBuffer(repeating: UInt8(9), count: 3)
        let rows = ReducePlan(inputShape: [2, 3], axes: [1])!, cols = ReducePlan(inputShape: [2, 3], axes: [0])!
        Reduce.any(input: input.constant, plan: rows, output: out.pointer)
        #expect(Array(out.array.prefix(2)) == [1, 1])
        Reduce.all(input: input.constant, plan: rows, output: out.pointer)
        #expect(Array(out.array.prefix(2)) == [0, 1])
        Reduce.all(input: input.constant, plan: cols, output: out.pointer)
        #expect(out.array == [0, 1, 0])
        Reduce.any(input: input.constant, plan: cols, output: out.pointer)
        #expect(out.array == [1, 1, 1])
    }

    @Test func argMaxAndArgMinTakeTheFirstTie() {
        // Shape [2, 4, 2]: reduce the middle axis.
        let x: [Float] = [1, 5, 3, 5, 3, 0, 2, 5,   -1, 0, -1, 0, -3, 0, -3, 0]
        let input = TestBuffer(x)
        let maxOut = TestBuffer(repeating: Int32(-1), count: 4), minOut = TestBuffer(repeating: Int64(-1), count: 4)
        ArgMinMax.argMax(input: input.constant, outer: 2, axisSize: 4, inner: 2, output: maxOut.pointer)
        ArgMinMax.argMin(input: input.constant, outer: 2, axisSize: 4, inner: 2, output: minOut.pointer)
        // Column by column, the first index of the extreme value.
        var wantMax: [Int32] = [], wantMin: [Int64] = []
        for o in 0..<2 { for j in 0..<2 {
            let column = (0..<4).map { x[(o * 4 + $0) * 2 + j] }
            wantMax.append(Int32(column.firstIndex(of: column.max()!)!))
            wantMin.append(Int64(column.firstIndex(of: column.min()!)!))
        } }
        #expect(maxOut.array == wantMax)
        #expect(minOut.array == wantMin)
    }
}
