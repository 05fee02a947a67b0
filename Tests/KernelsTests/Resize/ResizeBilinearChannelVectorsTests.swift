import TestSupport
import Testing
import Kernels

/// The optimised float RESIZE_BILINEAR against the reference, on every variant.
@Suite struct ResizeBilinearChannelVectorsTests {
    /// Random sizes up and down, every combination of the coordinate flags TFLite allows, and
    /// channel counts below one vector, whole vectors and whole vectors plus a remainder, on 1
    /// and 3 threads: the results equal the reference's bit for bit.
    @Test(arguments: hostVariants, 0..<12)
    func channelVectorsEqualTheReference(variant: InstructionSet, seed: Int) {
        var rng = SplitMix64(seed: UInt64(9300 + seed))
        let channels = [rng.int(1...7), 16, 48, rng.int(17...47), rng.int(65...90)][seed % 5]
        let s = NHWC(batch: rng.int(1...2), height: rng.int(1...13), width: rng.int(1...13), channels: channels)
        let o = NHWC(batch: s.batch, height: rng.int(1...27), width: rng.int(1...27), channels: channels)
        // Half-pixel centres exclude aligned corners.
        let params = [ResizeParams(alignCorners: false, halfPixelCenters: false), ResizeParams(alignCorners: true, halfPixelCenters: false),
                      ResizeParams(alignCorners: false, halfPixelCenters: true)][seed % 3]
        let input = TestBuffer(rng.floats(s.elementCount, in: -8...8))
        let lanes = [InstructionSet.avx512, .avx512vnni].contains(variant) ? 16 : 8
        let want = run(params, input, s, o, .referenceOnly, threads: 1)
        for threads in [1, 3] {
            let got = run(params, input, s, o, .optimized(kernels(variant)), threads: threads)
            #expect(got.name == (channels >= lanes ? "resize-bilinear.f32.channel-vectors/\(variant)" : "resize-bilinear.f32.reference"))
            #expect(got.values == want.values, "\(params) \(s) -> \(o), \(threads) threads, \(got.name)")
        }
    }

    private func run(_ params: ResizeParams, _ input: TestBuffer<Float>, _ s: NHWC, _ o: NHWC, _ choice: KernelChoice,
                     threads: Int) -> (name: String, values: [UInt32]) {
        let kernel = Resize.planBilinear(params: params, inputShape: s, outputShape: o, using: choice)
        let output = TestBuffer(repeating: Float.nan, count: o.elementCount)
        kernel.run(UnaryOperands(input: input.constant, output: output.pointer), ThreadPool(threadCount: threads))
        return (kernel.name, output.array.map(\.bitPattern))
    }
}
