import TestSupport
import Testing
import Kernels

@Suite struct CumsumTests {
    /// The sum over the index set each output element names, straight from the definition.
    static func reference(_ x: [Float], _ shape: [Int], axis: Int, exclusive: Bool, reverse: Bool) -> [Float] {
        let outer = Shape.product(shape, 0..<axis), n = shape[axis], inner = Shape.product(shape, axis + 1..<shape.count)
        var y = [Float](repeating: 0, count: x.count)
        for o in 0..<outer {
            for a in 0..<n {
                for i in 0..<inner {
                    let range = reverse ? (exclusive ? a + 1..<n : a..<n) : (exclusive ? 0..<a : 0..<a + 1)
                    y[(o * n + a) * inner + i] = range.reduce(0) { $0 + x[(o * n + $1) * inner + i] }
                }
            }
        }
        return y
    }

    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func matchesDefinitionOnEveryAxis(exclusive: Bool, reverse: Bool) {
        var rng = SplitMix64(seed: 41)
        for _ in 0..<12 {
            let shape = (0..<rng.int(1...4)).map { _ in rng.int(1...4) }
            let axis = rng.int(0...shape.count - 1)
            let x = rng.floats(Shape.elementCount(shape))
            let input = TestBuffer(x), out = TestBuffer(repeating: Float.nan, count: x.count)
            Cumsum.run(input: input.constant, output: out.pointer, outer: Shape.product(shape, 0..<axis), axisSize: shape[axis],
                       inner: Shape.product(shape, axis + 1..<shape.count), exclusive: exclusive, reverse: reverse)
            let want = Self.reference(x, shape, axis: axis, exclusive: exclusive, reverse: reverse)
            #expect(maxAbsDifference(out.array, want) <= reductionTolerance(shape[axis]))
        }
    }

    @Test func integersWrapInsteadOfTrapping() {
        let input = TestBuffer<Int32>([.max, 1, 1]), out = TestBuffer(repeating: Int32(0), count: 3)
        Cumsum.run(input: input.constant, output: out.pointer, outer: 1, axisSize: 3, inner: 1, exclusive: false, reverse: false)
        #expect(out.array == [.max, .min, .min &+ 1])
    }

    @Test func emptyAxisWritesNothing() {
        let input = TestBuffer<Float>([]), out = TestBuffer<Float>([])
        Cumsum.run(input: input.constant, output: out.pointer, outer: 3, axisSize: 0, inner: 2, exclusive: true, reverse: true)
        #expect(out.array.isEmpty)
    }
}
