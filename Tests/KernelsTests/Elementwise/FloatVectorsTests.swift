import TestSupport
import Testing
import Kernels

/// The variants' float ADD, SUB, MUL, DIV and PRELU and their vector activations against the
/// reference (and the baseline's vectors), bit for bit, on every variant this CPU runs.
@Suite struct FloatVectorsTests {
    /// Values that test the operations' corners: signed zeros, infinities, NaN, tiny and huge.
    static let specials: [Float] = [0, -0, 1, -1, .infinity, -.infinity, .nan, 1e-40, -3e38, 6, 6.5, -87.5, 100]

    /// Every layout but the strided one, with remainders after whole vectors, with and without
    /// a clamp, on 1 and 3 threads.
    @Test(arguments: hostVariants, [BinaryOperator.add, .subtract, .multiply, .divide])
    func arithmeticEqualsTheReference(variant: InstructionSet, op: BinaryOperator) {
        var rng = SplitMix64(seed: 7300)
        let shapes: [([Int], [Int])] = [
            ([3, 37], [3, 37]), ([40_000], [40_000]), ([5, 41], [1]), ([1], [9, 35]),
            ([7, 5, 19], [19]), ([19], [7, 5, 19]), ([300, 3], [3]), ([2, 3, 4], [3, 1]),
        ]
        for (lhsShape, rhsShape) in shapes {
            let plan = BroadcastPlan(lhsShape: lhsShape, rhsShape: rhsShape)!
            let a = TestBuffer(values(&rng, lhsShape.reduce(1, *))), b = TestBuffer(values(&rng, rhsShape.reduce(1, *)))
            for activation in [FusedActivation.none, .relu6, .reluN1To1].map({ $0.floatRange! }) {
                let want = run(op, plan, activation, a, b, .referenceOnly, threads: 1)
                for threads in [1, 3] {
                    let got = run(op, plan, activation, a, b, .optimized(kernels(variant)), threads: threads)
                    let expectedName = plan.layout == .general ? "op.f32.reference" : "op.f32.vectors/\(variant)"
                    #expect(got.name == expectedName)
                    #expect(got.values.map(\.bitPattern) == want.values.map(\.bitPattern),
                            "\(op) \(lhsShape) x \(rhsShape), \(activation.min)...\(activation.max), \(threads) threads")
                }
            }
        }
    }

    /// PRELU with a per-channel alpha (a repeated row, as after a convolution), a scalar alpha
    /// and an alpha of the input's shape.
    @Test(arguments: hostVariants)
    func preluEqualsTheReference(variant: InstructionSet) {
        var rng = SplitMix64(seed: 7500)
        let shapes: [([Int], [Int])] = [([1, 9, 7, 32], [1, 1, 32]), ([1, 5, 5, 19], [19]), ([4, 3], [3]),
                                        ([3, 41], [1]), ([2, 37], [2, 37]), ([2, 3, 4], [3, 1])]
        for (inputShape, alphaShape) in shapes {
            let plan = BroadcastPlan(lhsShape: inputShape, rhsShape: alphaShape)!
            let x = TestBuffer(values(&rng, inputShape.reduce(1, *)))
            let alpha = TestBuffer(values(&rng, alphaShape.reduce(1, *)))
            let want = TestBuffer(repeating: Float.nan, count: plan.elementCount)
            Activations.prelu(input: x.constant, alpha: alpha.constant, plan: plan, output: want.pointer)
            for threads in [1, 3] {
                let kernel = Activations.planPrelu(plan, using: .optimized(kernels(variant)))
                #expect(kernel.name == (plan.layout == .general ? "prelu.f32.reference" : "prelu.f32.vectors/\(variant)"))
                let got = TestBuffer(repeating: Float.nan, count: plan.elementCount)
                kernel.run(BinaryOperands(a: x.constant, b: alpha.constant, output: got.pointer), ThreadPool(threadCount: threads))
                #expect(got.array.map(\.bitPattern) == want.array.map(\.bitPattern), "\(inputShape) x \(alphaShape), \(threads) threads")
            }
        }
    }

    /// The vector activations give the baseline's bits on every variant (its accuracy against
    /// the formula is `ActivationsTests`'), over lengths with remainders and over the specials.
    @Test(arguments: hostVariants)
    func activationsEqualTheBaselineVectors(variant: InstructionSet) {
        var rng = SplitMix64(seed: 7400)
        let functions: [UnaryFunction] = [.relu, .relu6, .reluN1To1, .relu0To1, .leakyRelu(alpha: 0.2), .hardSwish, .logistic]
        for function in functions {
            for count in [1, 15, 16, 17, 33, 9000, 100_003] {
                let input = TestBuffer(values(&rng, count))
                let want = TestBuffer(repeating: Float.nan, count: count)
                Activations.apply(function, input: input.constant, output: want.pointer, count: count)
                for threads in [1, 3] {
                    let kernel = Activations.plan(function, count: count, family: "op", using: .optimized(kernels(variant)))
                    #expect(kernel.name == "op.f32.vectorized/\(variant)")
                    let got = TestBuffer(repeating: Float.nan, count: count)
                    kernel.run(UnaryOperands(input: input.constant, output: got.pointer), ThreadPool(threadCount: threads))
                    let differing = zip(got.array, want.array).enumerated().filter { $0.element.0.bitPattern != $0.element.1.bitPattern }
                    #expect(differing.isEmpty, "\(function) \(count) \(threads) threads: \(differing.count) differ, first \(differing.prefix(3).map { "x=\(input.array[$0.offset]) got \($0.element.0) want \($0.element.1)" })")
                }
            }
        }
    }

    /// A function without a vector path runs the reference, named so.
    @Test func functionsWithoutVectorsRunTheReference() {
        let kernel = Activations.plan(.tanh, count: 10, family: "tanh", using: .optimized(kernels(hostVariants.last!)))
        #expect(kernel.name == "tanh.f32.reference")
    }

    /// Random values in -12...12 with every tenth one a special.
    private func values(_ rng: inout SplitMix64, _ count: Int) -> [Float] {
        rng.floats(count, in: -12...12).enumerated().map { i, x in
            i % 10 == 3 ? Self.specials[(i / 10) % Self.specials.count] : x
        }
    }

    private func run(_ op: BinaryOperator, _ plan: BroadcastPlan, _ activation: ActivationRange<Float>,
                     _ a: TestBuffer<Float>, _ b: TestBuffer<Float>, _ choice: KernelChoice,
                     threads: Int) -> (name: String, values: [Float]) {
        let kernel = Elementwise.plan(op, plan: plan, activation: activation, family: "op", using: choice)
        let output = TestBuffer(repeating: Float.nan, count: plan.elementCount)
        kernel.run(BinaryOperands(a: a.constant, b: b.constant, output: output.pointer), ThreadPool(threadCount: threads))
        return (kernel.name, output.array)
    }
}
