import TestSupport
import Testing
import Kernels

/// Depthwise convolution as a grouped CONV_2D with one input channel per group: an independent
/// path through the already-tested convolution formula.
func depthwiseViaGroupedConv(_ input: [Float], _ s: NHWC, _ filter: [Float], _ f: NHWC, _ bias: [Float]?,
                             _ p: DepthwiseConv2DParams, _ o: NHWC) -> [Float] {
    // Grouped filter [outC, fh, fw, 1] from the depthwise [1, fh, fw, outC].
    var grouped = [Float](repeating: 0, count: f.elementCount)
    for oc in 0..<o.channels { for t in 0..<(f.height * f.width) { grouped[oc * f.height * f.width + t] = filter[t * o.channels + oc] } }
    return paddedConv2D(input, s, grouped, NHWC(batch: o.channels, height: f.height, width: f.width, channels: 1), bias,
                        p.geometry, o, p.activation)
}

struct DepthwiseCase {
    var input: NHWC, filter: NHWC, output: NHWC, params: DepthwiseConv2DParams
    static func random(_ rng: inout SplitMix64, multiplier: Int, filterSize: Int? = nil, stride: Int? = nil) -> DepthwiseCase {
        let cin = rng.int(1...21)
        let fh = filterSize ?? rng.int(1...5), fw = filterSize ?? rng.int(1...5)
        let sh = stride ?? rng.int(1...2), sw = stride ?? rng.int(1...2)
        let dh = filterSize == nil ? rng.int(1...2) : 1, dw = filterSize == nil ? rng.int(1...2) : 1
        let h = rng.int(((fh - 1) * dh + 1)...11), w = rng.int(((fw - 1) * dw + 1)...11)
        let scheme: PaddingScheme = rng.int(0...1) == 0 ? .same : .valid
        let made = ConvGeometry.make(padding: scheme, inputHeight: h, inputWidth: w, filterHeight: fh, filterWidth: fw,
                                     strideHeight: sh, strideWidth: sw, dilationHeight: dh, dilationWidth: dw)!
        let act = [FusedActivation.none, .relu, .relu6][rng.int(0...2)].floatRange!
        let batch = rng.int(1...2)
        return DepthwiseCase(input: NHWC(batch: batch, height: h, width: w, channels: cin),
                             filter: NHWC(batch: 1, height: fh, width: fw, channels: cin * multiplier),
                             output: NHWC(batch: batch, height: made.outputHeight, width: made.outputWidth, channels: cin * multiplier),
                             params: DepthwiseConv2DParams(geometry: made.geometry, depthMultiplier: multiplier, activation: act))
    }
}

@Suite struct DepthwiseConv2DTests {
    @Test(arguments: 0..<30)
    func referenceMatchesGroupedConvolution(seed: Int) {
        var rng = SplitMix64(seed: UInt64(2000 + seed))
        let c = DepthwiseCase.random(&rng, multiplier: 1 + seed % 3)
        let input = rng.floats(c.input.elementCount), filter = rng.floats(c.filter.elementCount)
        let bias = seed % 2 == 0 ? rng.floats(c.output.channels) : nil
        let inB = TestBuffer(input), fB = TestBuffer(filter), bB = bias.map { TestBuffer($0) }
        let out = TestBuffer(repeating: Float.nan, count: c.output.elementCount)
        DepthwiseConv2D.reference(params: c.params, ConvOperands(input: inB.constant, inputShape: c.input, filter: fB.constant,
                                  filterShape: c.filter, bias: bB?.constant, output: out.pointer, outputShape: c.output))
        let want = depthwiseViaGroupedConv(input, c.input, filter, c.filter, bias, c.params, c.output)
        #expect(maxAbsDifference(out.array, want) <= reductionTolerance(c.filter.height * c.filter.width))
    }

    /// The fast path against the reference on the shapes real models use (3x3 and 5x5, strides
    /// 1 and 2) and on random ones, with 1 to 3 threads.
    @Test(arguments: hostVariants, 0..<40)
    func optimizedMatchesReference(variant: InstructionSet, seed: Int) {
        var rng = SplitMix64(seed: UInt64(3000 + seed))
        let c: DepthwiseCase
        switch seed % 4 {
        case 0: c = .random(&rng, multiplier: 1, filterSize: 3, stride: 1)
        case 1: c = .random(&rng, multiplier: 1, filterSize: 3, stride: 2)
        case 2: c = .random(&rng, multiplier: 1, filterSize: 5, stride: 1 + seed % 2)
        default: c = .random(&rng, multiplier: seed % 8 == 3 ? 2 : 1)
        }
        let inB = TestBuffer(rng.floats(c.input.elementCount)), fB = TestBuffer(rng.floats(c.filter.elementCount))
        // Every fifth case has no bias (the accumulators then start from zero).
        let bB = seed % 5 == 4 ? nil : TestBuffer(rng.floats(c.output.channels))
        let want = TestBuffer(repeating: Float.nan, count: c.output.elementCount)
        let got = TestBuffer(repeating: Float.nan, count: c.output.elementCount)
        DepthwiseConv2D.reference(params: c.params, ConvOperands(input: inB.constant, inputShape: c.input, filter: fB.constant,
                                  filterShape: c.filter, bias: bB?.constant, output: want.pointer, outputShape: c.output))
        // Odd seeds give the kernel scratch for a zero-bordered input copy (when it asks for
        // any); even seeds take the per-pixel border path.
        let pool = ThreadPool(threadCount: 1 + seed % 3)
        let kernel = kernels(variant).floatDepthwiseConv2D(c.params, c.input, c.filter, c.output, pool.threadCount)
        let scratchCount = kernel.scratchFloatCount
        let scratch = TestBuffer(repeating: Float.nan, count: seed % 2 == 1 ? scratchCount : 0)
        withExtendedLifetime((inB, fB, bB, scratch)) {
            kernel.run(input: inB.constant, filter: fB.constant, bias: bB?.constant, output: got.pointer,
                       scratch: scratchCount > 0 && seed % 2 == 1 ? scratch.pointer : nil, pool: pool)
        }
        #expect(maxAbsDifference(got.array, want.array) <= reductionTolerance(c.filter.height * c.filter.width), "\(variant)")
    }

    /// Layers with the channel counts of real models (several 16-lane groups, then 8 and 4),
    /// wide enough for long interior spans, at strides 1 and 2, with and without a clamp; at
    /// stride 1 also through the zero-bordered copies, two threads each copying its own rows.
    @Test(arguments: hostVariants, [(48, 1, true), (48, 2, false), (60, 1, false), (60, 2, true), (16, 1, true), (36, 2, true)])
    func optimizedMatchesReferenceOnWideLayers(variant: InstructionSet, layer: (channels: Int, stride: Int, clamps: Bool)) {
        let (channels, stride, clamps) = layer
        var rng = SplitMix64(seed: UInt64(4000 + channels * 10 + stride))
        let input = NHWC(batch: 1, height: 17, width: 23, channels: channels)
        let filter = NHWC(batch: 1, height: 3, width: 3, channels: channels)
        let made = ConvGeometry.make(padding: .same, inputHeight: 17, inputWidth: 23, filterHeight: 3, filterWidth: 3,
                                     strideHeight: stride, strideWidth: stride)!
        let output = NHWC(batch: 1, height: made.outputHeight, width: made.outputWidth, channels: channels)
        let params = DepthwiseConv2DParams(geometry: made.geometry, depthMultiplier: 1,
                                           activation: (clamps ? FusedActivation.relu6 : .none).floatRange!)
        let inB = TestBuffer(rng.floats(input.elementCount)), fB = TestBuffer(rng.floats(filter.elementCount))
        let bB = TestBuffer(rng.floats(channels))
        let want = TestBuffer(repeating: Float.nan, count: output.elementCount)
        DepthwiseConv2D.reference(params: params, ConvOperands(input: inB.constant, inputShape: input, filter: fB.constant,
                                  filterShape: filter, bias: bB.constant, output: want.pointer, outputShape: output))
        let pool = ThreadPool(threadCount: 2)
        let kernel = kernels(variant).floatDepthwiseConv2D(params, input, filter, output, pool.threadCount)
        let scratchCount = kernel.scratchFloatCount
        #expect((scratchCount > 0) == (stride == 1))
        let scratch = TestBuffer(repeating: Float.nan, count: scratchCount)
        for useScratch in scratchCount > 0 ? [false, true] : [false] {
            let got = TestBuffer(repeating: Float.nan, count: output.elementCount)
            withExtendedLifetime((inB, fB, bB, scratch)) {
                kernel.run(input: inB.constant, filter: fB.constant, bias: bB.constant, output: got.pointer,
                           scratch: useScratch ? scratch.pointer : nil, pool: pool)
            }
            #expect(maxAbsDifference(got.array, want.array) <= reductionTolerance(9), "\(variant) scratch: \(useScratch)")
        }
    }
}
