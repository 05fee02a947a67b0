import TestSupport
import Testing
import Kernels

@Suite struct FullyConnectedTests {
    @Test func referenceIsTheDotProductPlusBias() {
        // [1, 2] x weights [[1, 0], [2, -1], [0.5, 0.5]] + bias [0, 1, -1], then RELU.
        let input = TestBuffer<Float>([1, 2]), w = TestBuffer<Float>([1, 0, 2, -1, 0.5, 0.5])
        let bias = TestBuffer<Float>([0, 1, -3]), out = TestBuffer(repeating: Float.nan, count: 3)
        FullyConnected.reference(params: FullyConnectedParams(activation: FusedActivation.relu.floatRange!),
                                 input: input.constant, batch: 1, inputDepth: 2, weights: w.constant, outputDepth: 3,
                                 bias: bias.constant, output: out.pointer)
        let expected: [Float] = [max(0, 1 * 1 + 2 * 0 + 0), max(0, 1 * 2 + 2 * -1 + 1), max(0, 1 * 0.5 + 2 * 0.5 - 3)]
        #expect(out.array == expected)
    }

    @Test(arguments: hostVariants, 0..<30)
    func optimizedMatchesReference(variant: InstructionSet, seed: Int) {
        var rng = SplitMix64(seed: UInt64(4000 + seed))
        // Every third case spans several GEMM depth blocks (256) with a partial last block.
        let batch = [1, 1, 2, 5, 7, 13][seed % 6], depth = seed % 3 == 0 ? rng.int(257...700) : rng.int(0...70)
        let outputs = rng.int(1...41)
        let input = TestBuffer(rng.floats(batch * depth)), w = TestBuffer(rng.floats(outputs * depth))
        let bias = seed % 2 == 0 ? TestBuffer(rng.floats(outputs)) : nil
        let params = FullyConnectedParams(activation: [FusedActivation.none, .relu6][seed % 2].floatRange!)
        let want = TestBuffer(repeating: Float.nan, count: batch * outputs), got = TestBuffer(repeating: Float.nan, count: batch * outputs)
        FullyConnected.reference(params: params, input: input.constant, batch: batch, inputDepth: depth, weights: w.constant,
                                 outputDepth: outputs, bias: bias?.constant, output: want.pointer)
        let kernel = kernels(variant).floatFullyConnected(params, w.constant, batch, depth, outputs)
        kernel.run(input: input.constant, bias: bias?.constant, output: got.pointer, pool: ThreadPool(threadCount: 1 + seed % 4))
        #expect(maxAbsDifference(got.array, want.array) <= reductionTolerance(depth), "\(variant)")
    }
}
