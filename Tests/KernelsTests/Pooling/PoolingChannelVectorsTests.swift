import TestSupport
import Testing
import Kernels

/// The optimised float MAX_POOL_2D and AVERAGE_POOL_2D against the reference, on every variant.
@Suite struct PoolingChannelVectorsTests {
    /// Random windows, strides, paddings and activations over channel counts below one vector,
    /// whole vectors and whole vectors plus a remainder, on 1 and 3 threads: the results equal
    /// the reference's bit for bit.
    @Test(arguments: hostVariants, 0..<12)
    func channelVectorsEqualTheReference(variant: InstructionSet, seed: Int) {
        var rng = SplitMix64(seed: UInt64(9100 + seed))
        let fh = rng.int(1...4), fw = rng.int(1...4), sh = rng.int(1...3), sw = rng.int(1...3)
        let channels = [rng.int(1...7), 16, 32, rng.int(17...47), rng.int(65...90)][seed % 5]
        let s = NHWC(batch: rng.int(1...2), height: rng.int(fh...12), width: rng.int(fw...12), channels: channels)
        let made = ConvGeometry.make(padding: seed % 2 == 0 ? .same : .valid, inputHeight: s.height, inputWidth: s.width,
                                     filterHeight: fh, filterWidth: fw, strideHeight: sh, strideWidth: sw)!
        let o = NHWC(batch: s.batch, height: made.outputHeight, width: made.outputWidth, channels: channels)
        let params = PoolParams(geometry: made.geometry, filterHeight: fh, filterWidth: fw,
                                activation: [FusedActivation.none, .relu6, .relu][seed % 3].floatRange!)
        let input = TestBuffer(rng.floats(s.elementCount, in: -8...8))
        // The variant's float vector: 16 lanes with AVX-512, 8 below it.
        let lanes = [InstructionSet.avx512, .avx512vnni].contains(variant) ? 16 : 8
        for reduction in [PoolingReduction.max, .average] {
            let want = run(reduction, params, input, s, o, .referenceOnly, threads: 1)
            for threads in [1, 3] {
                let got = run(reduction, params, input, s, o, .optimized(kernels(variant)), threads: threads)
                let family = reduction == .max ? "max-pool2d" : "average-pool2d"
                #expect(got.name == (channels >= lanes ? "\(family).f32.channel-vectors/\(variant)" : "\(family).f32.reference"))
                #expect(got.values == want.values, "\(reduction) \(s) -> \(o) \(threads) threads, \(got.name)")
            }
        }
    }

    /// Signed zeros and NaN elements, where a maximum depends on how it compares: the optimised
    /// kernel keeps what the reference keeps (one that let a NaN element through fails here).
    @Test(arguments: hostVariants)
    func signedZerosAndNaNsPoolAsInTheReference(variant: InstructionSet) {
        let s = NHWC(batch: 1, height: 4, width: 4, channels: 16), o = NHWC(batch: 1, height: 2, width: 2, channels: 16)
        let made = ConvGeometry.make(padding: .valid, inputHeight: 4, inputWidth: 4, filterHeight: 2, filterWidth: 2,
                                     strideHeight: 2, strideWidth: 2)!
        let params = PoolParams(geometry: made.geometry, filterHeight: 2, filterWidth: 2,
                                activation: FusedActivation.none.floatRange!)
        let specials: [Float] = [0, -0, .nan, -.nan, 1]
        // Each channel's window runs through consecutive specials from its own start, so NaN
        // elements come first, in the middle and last.
        let input = TestBuffer((0..<s.elementCount).map { i in
            let c = i % 16, x = i / 16 % 4, y = i / 64
            return specials[((y % 2) * 2 + x % 2 + c) % specials.count]
        })
        let want = run(.max, params, input, s, o, .referenceOnly, threads: 1)
        let got = run(.max, params, input, s, o, .optimized(kernels(variant)), threads: 1)
        #expect(got.values.map(\.bitPattern) == want.values.map(\.bitPattern))
    }

    private func run(_ reduction: PoolingReduction, _ params: PoolParams, _ input: TestBuffer<Float>, _ s: NHWC, _ o: NHWC,
                     _ choice: KernelChoice, threads: Int) -> (name: String, values: [Float]) {
        let kernel = Pooling.plan(reduction, params: params, inputShape: s, outputShape: o, using: choice)
        let output = TestBuffer(repeating: Float.nan, count: o.elementCount)
        kernel.run(UnaryOperands(input: input.constant, output: output.pointer), ThreadPool(threadCount: threads))
        return (kernel.name, output.array)
    }
}
