import Testing
import Kernels

/// The planning functions: the policy and the request decide the kernel, and its name says
/// which one it is.
@Suite struct KernelPlanTests {
    static let optimized = KernelChoice.optimized(.baseline)

    @Test func batchMatMulTakesRowUpdatesUnlessTheRightHandSideIsAdjoint() {
        func name(adjointRHS: Bool, _ choice: KernelChoice) -> String {
            BatchMatMul.plan(lhsShape: [1, 2, 3], adjointLHS: false, rhsShape: adjointRHS ? [1, 4, 3] : [1, 3, 4],
                             adjointRHS: adjointRHS, outputShape: [1, 2, 4], using: choice).name
        }
        #expect(name(adjointRHS: false, Self.optimized) == "batch-matmul.f32.row-updates")
        #expect(name(adjointRHS: true, Self.optimized) == "batch-matmul.f32.reference")
        #expect(name(adjointRHS: false, .referenceOnly) == "batch-matmul.f32.reference")
    }

    @Test func fullyConnectedPacksOnlyConstantWeights() {
        let weights: [Float] = [1, 2, 3, 4, 5, 6]
        let params = FullyConnectedParams(activation: ActivationRange(min: -.infinity, max: .infinity))
        weights.withUnsafeBufferPointer { w in
            func name(_ operand: PlannedOperand<Float>, _ choice: KernelChoice) -> String {
                FullyConnected.plan(params: params, batch: 1, inputDepth: 3, outputDepth: 2, weights: operand, using: choice).name
            }
            #expect(name(.constant(w.baseAddress!), Self.optimized) == "fully-connected.f32.gemm/\(InstructionSet.baseline)")
            #expect(name(.computed, Self.optimized) == "fully-connected.f32.reference")
            #expect(name(.constant(w.baseAddress!), .referenceOnly) == "fully-connected.f32.reference")
        }
    }

    /// Both kernels a plan can pick compute the same product.
    @Test func fullyConnectedKernelsAgree() {
        let weights: [Float] = [1, 2, 3, 4, 5, 6], input: [Float] = [0.5, -1, 2], bias: [Float] = [0.25, -0.25]
        let params = FullyConnectedParams(activation: ActivationRange(min: -.infinity, max: .infinity))
        let pool = ThreadPool(threadCount: 1)
        var outputs: [[Float]] = []
        weights.withUnsafeBufferPointer { w in
            for choice in [Self.optimized, .referenceOnly] {
                let kernel = FullyConnected.plan(params: params, batch: 1, inputDepth: 3, outputDepth: 2,
                                                 weights: .constant(w.baseAddress!), using: choice)
                var output = [Float](repeating: 0, count: 2)
                var scratch = [UInt8](repeating: 0, count: max(1, kernel.scratchBytes))
                input.withUnsafeBufferPointer { x in bias.withUnsafeBufferPointer { b in
                    output.withUnsafeMutableBufferPointer { y in scratch.withUnsafeMutableBytes { s in
                        kernel.run(WeightedOperands(input: x.baseAddress!, filter: w.baseAddress!, bias: b.baseAddress, output: y.baseAddress!,
                                                    scratch: s.baseAddress!), pool)
                    } }
                } }
                outputs.append(output)
            }
        }
        #expect(outputs[0] == outputs[1])
        #expect(outputs[1] == [4.75, 8.75])
    }
}
