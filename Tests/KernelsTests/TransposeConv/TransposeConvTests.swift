import TestSupport
import Testing
import Kernels

@Suite struct TransposeConvTests {
    /// Each output pixel gathers every (input pixel, filter tap) pair that lands on it: the
    /// transpose of the scatter, computed independently.
    @Test(arguments: 0..<25)
    func referenceMatchesGatherForm(seed: Int) {
        var rng = SplitMix64(seed: UInt64(5000 + seed))
        let s = NHWC(batch: rng.int(1...2), height: rng.int(1...5), width: rng.int(1...5), channels: rng.int(1...4))
        let f = NHWC(batch: rng.int(1...5), height: rng.int(1...4), width: rng.int(1...4), channels: s.channels)
        let sh = rng.int(1...3), sw = rng.int(1...3)
        let o = NHWC(batch: s.batch, height: rng.int(1...(s.height * sh + 2)), width: rng.int(1...(s.width * sw + 2)), channels: f.batch)
        let params = TransposeConvParams(strideHeight: sh, strideWidth: sw, paddingTop: rng.int(0...2), paddingLeft: rng.int(0...2),
                                         activation: [FusedActivation.none, .relu][seed % 2].floatRange!)
        let input = rng.floats(s.elementCount), filter = rng.floats(f.elementCount), bias = rng.floats(o.channels)
        let out = TestBuffer(repeating: Float.nan, count: o.elementCount)
        let inB = TestBuffer(input), fB = TestBuffer(filter), bB = TestBuffer(bias)
        TransposeConv.reference(params: params, ConvOperands(input: inB.constant, inputShape: s, filter: fB.constant, filterShape: f,
                                bias: seed % 3 == 0 ? nil : bB.constant, output: out.pointer, outputShape: o))
        var want = [Float](repeating: 0, count: o.elementCount)
        for b in 0..<o.batch { for oy in 0..<o.height { for ox in 0..<o.width { for oc in 0..<o.channels {
            var acc: Double = seed % 3 == 0 ? 0 : Double(bias[oc])
            for iy in 0..<s.height { for ix in 0..<s.width { for fy in 0..<f.height { for fx in 0..<f.width {
                guard iy * sh - params.paddingTop + fy == oy, ix * sw - params.paddingLeft + fx == ox else { continue }
                for ic in 0..<s.channels {
                    let x = Double(input[((b * s.height + iy) * s.width + ix) * s.channels + ic])
                    let w = Double(filter[((oc * f.height + fy) * f.width + fx) * f.channels + ic])
                    acc += x * w
                }
            } } } }
            want[((b * o.height + oy) * o.width + ox) * o.channels + oc] = params.activation.clamp(Float(acc))
        } } } }
        #expect(maxAbsDifference(out.array, want) <= reductionTolerance(f.elementCount))
    }

    /// The GEMM path against the reference on random shapes, strides, paddings and channel
    /// counts (including more pixels than one GEMM block).
    @Test(arguments: hostVariants, 0..<25)
    func optimizedMatchesReference(variant: InstructionSet, seed: Int) {
        var rng = SplitMix64(seed: UInt64(5500 + seed))
        let big = seed % 5 == 0
        let s = NHWC(batch: rng.int(1...2), height: big ? 11 : rng.int(1...5), width: big ? 13 : rng.int(1...5), channels: rng.int(1...20))
        let f = NHWC(batch: rng.int(1...11), height: rng.int(1...4), width: rng.int(1...4), channels: s.channels)
        let sh = rng.int(1...3), sw = rng.int(1...3)
        let o = NHWC(batch: s.batch, height: rng.int(1...(s.height * sh + 2)), width: rng.int(1...(s.width * sw + 2)), channels: f.batch)
        let params = TransposeConvParams(strideHeight: sh, strideWidth: sw, paddingTop: rng.int(0...2), paddingLeft: rng.int(0...2),
                                         activation: [FusedActivation.none, .relu6][seed % 2].floatRange!)
        let inB = TestBuffer(rng.floats(s.elementCount)), fB = TestBuffer(rng.floats(f.elementCount)), bB = TestBuffer(rng.floats(o.channels))
        let want = TestBuffer(repeating: Float.nan, count: o.elementCount), got = TestBuffer(repeating: Float.nan, count: o.elementCount)
        let bias = seed % 3 == 0 ? nil : bB.constant
        TransposeConv.reference(params: params, ConvOperands(input: inB.constant, inputShape: s, filter: fB.constant, filterShape: f,
                                bias: bias, output: want.pointer, outputShape: o))
        let pool = ThreadPool(threadCount: 1 + seed % 2)
        let kernel = kernels(variant).floatTransposeConv(params, s, fB.constant, f, o, pool.threadCount)
        let scratch = TestBuffer(repeating: Float.nan, count: kernel.scratchFloatCount)
        kernel.run(input: inB.constant, bias: bias, output: got.pointer, scratch: scratch.pointer, pool: pool)
        #expect(maxAbsDifference(got.array, want.array) <= reductionTolerance(f.elementCount), "\(variant)")
    }
}
