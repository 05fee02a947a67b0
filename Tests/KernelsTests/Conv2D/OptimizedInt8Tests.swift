import TestSupport
import Testing
import Kernels

/// The optimised int8 paths against the reference kernels on random shapes, scales and zero
/// points: they must agree exactly (same integer sums, same requantisation).
@Suite struct OptimizedInt8Tests {
    private func random(_ n: Int, _ rng: inout SplitMix64) -> [Int8] {
        (0..<n).map { _ in Int8.random(in: -128...127, using: &rng) }
    }

    /// Parameters with random scales and zero points; with `wideMultipliers`, output scales
    /// down to 1e-5 give rescale multipliers above 1 (left shifts) as well as tiny ones.
    private func randomParams(_ rng: inout SplitMix64, geometry: ConvGeometry, channels: Int,
                              wideMultipliers: Bool = false) -> QuantizedConvParams {
        let input = AffineQuantization(scale: Float.random(in: 0.005...0.05, using: &rng), zeroPoint: Int32.random(in: -128...127, using: &rng))
        let outputScale = wideMultipliers ? Float.random(in: 0.00001...0.2, using: &rng) : Float.random(in: 0.01...0.2, using: &rng)
        let output = AffineQuantization(scale: outputScale, zeroPoint: Int32.random(in: -128...127, using: &rng))
        let scales = (0..<channels).map { _ in Float.random(in: 0.001...0.02, using: &rng) }
        let activation: FusedActivation = [.none, .relu, .relu6][Int.random(in: 0...2, using: &rng)]
        return QuantizedConvParams.make(geometry: geometry, input: input, filterScales: scales, filterZeroPoint: 0, output: output,
                                        outputChannels: channels, activation: activation, qmin: -128, qmax: 127)!
    }

    /// An int8 CONV_2D through `variant`'s optimised kernel: its output and the kernel's name,
    /// or nil when the variant declines the layer.
    private func optimizedConv(_ variant: InstructionSet, _ params: QuantizedConvParams, input: [Int8], inShape: NHWC,
                               filter: [Int8], filterShape: NHWC, bias: [Int32]?, outShape: NHWC,
                               pool: ThreadPool) -> (output: [Int8], name: String)? {
        let kernel = filter.withUnsafeBufferPointer { w in
            withOptionalPointer(bias) { b in
                kernels(variant).int8Conv2D(params, w.baseAddress!, filterShape, b, inShape, outShape, pool.threadCount)
            }
        }
        guard let kernel else { return nil }
        var output = [Int8](repeating: 0, count: outShape.elementCount)
        var scratch = [Int8](repeating: 0, count: max(kernel.scratchBytes, 1))
        input.withUnsafeBufferPointer { i in scratch.withUnsafeMutableBufferPointer { s in output.withUnsafeMutableBufferPointer {
            kernel.run(input: i.baseAddress!, output: $0.baseAddress!, scratch: s.baseAddress, pool: pool)
        }}}
        return (output, kernel.name)
    }

    /// An int8 DEPTHWISE_CONV_2D through `variant`'s optimised kernel, or nil when it declines.
    private func optimizedDepthwise(_ variant: InstructionSet, _ params: QuantizedConvParams, multiplier: Int, input: [Int8],
                                    inShape: NHWC, filter: [Int8], filterShape: NHWC, bias: [Int32]?, outShape: NHWC,
                                    pool: ThreadPool) -> [Int8]? {
        let kernel = filter.withUnsafeBufferPointer { w in
            withOptionalPointer(bias) { b in
                kernels(variant).int8DepthwiseConv2D(params, multiplier, w.baseAddress!, filterShape, b, inShape, outShape,
                                                     pool.threadCount)
            }
        }
        guard let kernel else { return nil }
        var output = [Int8](repeating: 0, count: outShape.elementCount)
        var scratch = [Int8](repeating: 0, count: max(kernel.scratchBytes, 1))
        input.withUnsafeBufferPointer { i in scratch.withUnsafeMutableBufferPointer { s in output.withUnsafeMutableBufferPointer {
            kernel.run(input: i.baseAddress!, output: $0.baseAddress!, scratch: s.baseAddress, pool: pool)
        }}}
        return output
    }

    /// One convolution through `Conv2D.Quantized.reference` and through `variant`'s optimised kernel on
    /// `pool`; also whether the optimised layer read its windows in place.
    private func run(_ variant: InstructionSet, _ params: QuantizedConvParams, input: [Int8], inShape: NHWC, filter: [Int8],
                     filterShape: NHWC, bias: [Int32]?, outShape: NHWC, pool: ThreadPool)
        -> (reference: [Int8], optimised: [Int8], inPlace: Bool) {
        var reference = [Int8](repeating: 0, count: outShape.elementCount)
        input.withUnsafeBufferPointer { i in filter.withUnsafeBufferPointer { w in withOptionalPointer(bias) { bb in
            reference.withUnsafeMutableBufferPointer {
                Conv2D.Quantized.reference(params, ConvOperands(input: i.baseAddress!, inputShape: inShape, filter: w.baseAddress!, filterShape: filterShape,
                                           bias: bb, output: $0.baseAddress!, outputShape: outShape))
            }
        }}}
        let optimised = optimizedConv(variant, params, input: input, inShape: inShape, filter: filter, filterShape: filterShape,
                                      bias: bias, outShape: outShape, pool: pool)!
        return (reference, optimised.output, optimised.name.contains("direct-rows"))
    }

    /// A layer of random input, symmetric filter (no -128) and bias (within +-5000 unless
    /// given) through the reference and `variant`'s optimised kernel.
    private func runRandomLayer(_ variant: InstructionSet, _ params: QuantizedConvParams, inShape: NHWC, filterShape: NHWC,
                                outShape: NHWC, bias: [Int32]? = nil, pool: ThreadPool,
                                rng: inout SplitMix64) -> (reference: [Int8], optimised: [Int8]) {
        let input = random(inShape.elementCount, &rng)
        let filter = random(filterShape.elementCount, &rng).map { $0 == -128 ? -127 : $0 }
        let bias = bias ?? (0..<filterShape.batch).map { _ in Int32.random(in: -5000...5000, using: &rng) }
        let (reference, optimised, _) = run(variant, params, input: input, inShape: inShape, filter: filter,
                                            filterShape: filterShape, bias: bias, outShape: outShape, pool: pool)
        return (reference, optimised)
    }

    /// Channels of near-zero scale beside ordinary ones (as efficientnet_lite0 has): rescales
    /// with right shifts of 24 to 31 bits, large biases so that those channels' outputs are not
    /// all the zero point, every activation; pointwise and 3x3, on one and three threads.
    @Test(arguments: hostVariants, [1, 3])
    func conv2DWithNearZeroChannelsMatchesReference(variant: InstructionSet, threads: Int) {
        let pool = ThreadPool(threadCount: threads)
        var rng = SplitMix64(seed: 105)
        var shifts = Set<Int>(), varied = 0
        for trial in 0..<12 {
            let k = trial % 2 == 0 ? 1 : 3
            let inShape = NHWC(batch: 1, height: 6, width: 7, channels: 4 * Int.random(in: 2...10, using: &rng))
            let outChannels = Int.random(in: 17...40, using: &rng)
            let (g, oh, ow) = ConvGeometry.make(padding: .same, inputHeight: 6, inputWidth: 7, filterHeight: k, filterWidth: k,
                                                strideHeight: 1, strideWidth: 1, dilationHeight: 1, dilationWidth: 1)!
            let input = AffineQuantization(scale: Float.random(in: 0.005...0.05, using: &rng), zeroPoint: Int32.random(in: -128...127, using: &rng))
            let output = AffineQuantization(scale: Float.random(in: 0.01...0.2, using: &rng), zeroPoint: Int32.random(in: -128...127, using: &rng))
            let tiny = (0..<outChannels).map { $0 % 3 == 1 }
            // Near-zero channels' rescales in [2^-(24 + t), 2^-(23 + t)): right shifts of 24 to 31.
            let shift = 24 + trial % 8
            let scales = tiny.map {
                $0 ? Float.random(in: 0.5..<1, using: &rng) / Float(1 << shift) * output.scale / input.scale
                    : Float.random(in: 0.001...0.02, using: &rng)
            }
            let activation: FusedActivation = [.none, .relu, .relu6][trial % 3]
            let params = QuantizedConvParams.make(geometry: g, input: input, filterScales: scales, filterZeroPoint: 0, output: output,
                                                  outputChannels: outChannels, activation: activation, qmin: -128, qmax: 127)!
            shifts.formUnion(params.outputMultipliers.map { -$0.shift })
            let filterShape = NHWC(batch: outChannels, height: k, width: k, channels: inShape.channels)
            let outShape = NHWC(batch: 1, height: oh, width: ow, channels: outChannels)
            let bias = tiny.map { $0 ? Int32.random(in: -2_000_000_000...2_000_000_000, using: &rng) : Int32.random(in: -5000...5000, using: &rng) }
            let (reference, optimised) = runRandomLayer(variant, params, inShape: inShape, filterShape: filterShape, outShape: outShape,
                                                        bias: bias, pool: pool, rng: &rng)
            #expect(optimised == reference, "\(variant) trial \(trial): k\(k) \(activation)")
            let tinyOutputs = Set((0..<(oh * ow)).flatMap { p in (0..<outChannels).filter { tiny[$0] }.map { reference[p * outChannels + $0] } })
            if tinyOutputs.count > 2 { varied += 1 }
        }
        #expect(Set(24...31).isSubset(of: shifts), "right shifts: \(shifts.sorted())")
        #expect(varied >= 8, "the near-zero channels' outputs varied in \(varied) of 12 trials")
    }

    /// Few pixels and many output channels (7x7 and 3x5 maps, 200 to 330 channels), where the
    /// pool splits the channel blocks rather than the tiles of pixels; pointwise (read in place)
    /// and 3x3 (gathered), on two and three threads.
    @Test(arguments: hostVariants, [2, 3])
    func conv2DSplitAcrossChannelBlocksMatchesReference(variant: InstructionSet, threads: Int) {
        let pool = ThreadPool(threadCount: threads)
        var rng = SplitMix64(seed: 104)
        for (trial, (height, width, k)) in [(7, 7, 1), (7, 7, 3), (3, 5, 1), (3, 5, 3)].enumerated() {
            let inShape = NHWC(batch: 1, height: height, width: width, channels: 4 * Int.random(in: 4...20, using: &rng))
            let outChannels = Int.random(in: 200...330, using: &rng)
            let (g, oh, ow) = ConvGeometry.make(padding: .same, inputHeight: height, inputWidth: width, filterHeight: k, filterWidth: k,
                                                strideHeight: 1, strideWidth: 1, dilationHeight: 1, dilationWidth: 1)!
            let filterShape = NHWC(batch: outChannels, height: k, width: k, channels: inShape.channels)
            let outShape = NHWC(batch: 1, height: oh, width: ow, channels: outChannels)
            let params = randomParams(&rng, geometry: g, channels: outChannels)
            let (reference, optimised) = runRandomLayer(variant, params, inShape: inShape, filterShape: filterShape, outShape: outShape,
                                                        pool: pool, rng: &rng)
            #expect(optimised == reference, "\(variant) trial \(trial): \(inShape) k\(k) -> \(outChannels)")
        }
    }

    /// Run on the calling thread only and on a pool of three threads (partial tiles, uneven
    /// splits, per-thread im2col scratch).
    @Test(arguments: hostVariants, [1, 3])
    func conv2DMatchesReference(variant: InstructionSet, threads: Int) {
        let pool = ThreadPool(threadCount: threads)
        var rng = SplitMix64(seed: 100)
        var compared = 0
        for trial in 0..<80 {
            let pointwise = trial % 3 == 0
            let inShape = NHWC(batch: Int.random(in: 1...2, using: &rng), height: Int.random(in: 1...9, using: &rng),
                               width: Int.random(in: 1...9, using: &rng), channels: Int.random(in: 1...40, using: &rng))
            let k = pointwise ? 1 : Int.random(in: 1...3, using: &rng)
            let stride = pointwise ? 1 : Int.random(in: 1...2, using: &rng)
            let dilation = pointwise ? 1 : Int.random(in: 1...2, using: &rng)
            let padding: PaddingScheme = pointwise || Bool.random(using: &rng) ? .same : .valid
            guard let (g, oh, ow) = ConvGeometry.make(padding: padding, inputHeight: inShape.height, inputWidth: inShape.width,
                                                      filterHeight: k, filterWidth: k, strideHeight: stride, strideWidth: stride,
                                                      dilationHeight: dilation, dilationWidth: dilation), oh > 0, ow > 0 else { continue }
            let outChannels = Int.random(in: 1...(trial % 2 == 0 ? 11 : 40), using: &rng)
            let filterShape = NHWC(batch: outChannels, height: k, width: k, channels: inShape.channels)
            let outShape = NHWC(batch: inShape.batch, height: oh, width: ow, channels: outChannels)
            let params = randomParams(&rng, geometry: g, channels: outChannels, wideMultipliers: trial % 4 == 1)
            let (reference, optimised) = runRandomLayer(variant, params, inShape: inShape, filterShape: filterShape, outShape: outShape,
                                                        pool: pool, rng: &rng)
            #expect(optimised == reference, "\(variant) trial \(trial): \(inShape) k\(k) s\(stride) d\(dilation) \(padding)")
            compared += 1
        }
        #expect(compared > 40)
    }

    @Test(arguments: hostVariants, [1, 3])
    func depthwiseConv2DMatchesReference(variant: InstructionSet, threads: Int) {
        let pool = ThreadPool(threadCount: threads)
        var rng = SplitMix64(seed: 101)
        for trial in 0..<80 {
            // Batches of 1 and 2: the kernel's ring of prepared input rows must not carry a
            // row over from one image to the next.
            let inShape = NHWC(batch: Int.random(in: 1...2, using: &rng), height: Int.random(in: 1...9, using: &rng),
                               width: Int.random(in: 1...9, using: &rng), channels: Int.random(in: 1...70, using: &rng))
            // Square windows (3x3 and 5x5 have their own unrolled loops) and, every third trial,
            // rectangular ones.
            let k = Int.random(in: 1...5, using: &rng), stride = Int.random(in: 1...2, using: &rng)
            let kw = trial % 3 == 1 ? Int.random(in: 1...5, using: &rng) : k
            let dilation = trial % 5 == 2 ? 2 : 1
            let multiplier = trial % 4 == 0 ? 2 : 1
            guard let (g, oh, ow) = ConvGeometry.make(padding: Bool.random(using: &rng) ? .same : .valid, inputHeight: inShape.height,
                                                      inputWidth: inShape.width, filterHeight: k, filterWidth: kw,
                                                      strideHeight: stride, strideWidth: stride,
                                                      dilationHeight: dilation, dilationWidth: dilation), oh > 0, ow > 0 else { continue }
            let channels = inShape.channels * multiplier
            let filterShape = NHWC(batch: 1, height: k, width: kw, channels: channels)
            let outShape = NHWC(batch: inShape.batch, height: oh, width: ow, channels: channels)
            let params = randomParams(&rng, geometry: g, channels: channels, wideMultipliers: trial % 4 == 3)
            let input = random(inShape.elementCount, &rng), filter = random(filterShape.elementCount, &rng)
            let bias = (0..<channels).map { _ in Int32.random(in: -5000...5000, using: &rng) }
            var reference = [Int8](repeating: 0, count: outShape.elementCount)
            input.withUnsafeBufferPointer { i in filter.withUnsafeBufferPointer { w in bias.withUnsafeBufferPointer { bb in
                reference.withUnsafeMutableBufferPointer {
                    DepthwiseConv2D.Quantized.reference(params, depthMultiplier: multiplier, ConvOperands(input: i.baseAddress!, inputShape: inShape, filter: w.baseAddress!,
                                                        filterShape: filterShape, bias: bb.baseAddress, output: $0.baseAddress!, outputShape: outShape))
                }
            }}}
            guard let optimised = optimizedDepthwise(variant, params, multiplier: multiplier, input: input, inShape: inShape,
                                                     filter: filter, filterShape: filterShape, bias: bias, outShape: outShape,
                                                     pool: pool) else {
                // Only depth multipliers other than 1 fall back to the reference kernel.
                #expect(multiplier != 1, "\(variant) trial \(trial)")
                continue
            }
            #expect(optimised == reference, "\(variant) trial \(trial)")
        }
    }

    /// The depthwise path's int32 sums at their extremes: every product 128 * 128 over a 15 x 15
    /// kernel (225 taps, 3.7 million), with the zero point at either end so padding taps and
    /// the folded bias are extreme too.
    @Test(arguments: hostVariants, [(Int8(127), Int32(-128)), (Int8(-128), Int32(127))])
    func depthwiseConv2DExtremesMatchReference(variant: InstructionSet, extremes: (value: Int8, zeroPoint: Int32)) {
        let (value, zeroPoint) = extremes
        let (side, k, channels) = (17, 15, 17)
        let shape = NHWC(batch: 1, height: side, width: side, channels: channels)
        let (g, _, _) = ConvGeometry.make(padding: .same, inputHeight: side, inputWidth: side, filterHeight: k, filterWidth: k,
                                          strideHeight: 1, strideWidth: 1)!
        let params = QuantizedConvParams.make(geometry: g, input: AffineQuantization(scale: 0.01, zeroPoint: zeroPoint),
                                              filterScales: [Float](repeating: 0.0001, count: channels), filterZeroPoint: 0,
                                              output: AffineQuantization(scale: 2, zeroPoint: 0), outputChannels: channels,
                                              activation: .none, qmin: -128, qmax: 127)!
        let input = [Int8](repeating: value, count: shape.elementCount)
        let filter = [Int8](repeating: -128, count: k * k * channels)
        let filterShape = NHWC(batch: 1, height: k, width: k, channels: channels)
        var reference = [Int8](repeating: 0, count: shape.elementCount)
        input.withUnsafeBufferPointer { i in filter.withUnsafeBufferPointer { w in
            reference.withUnsafeMutableBufferPointer {
                DepthwiseConv2D.Quantized.reference(params, depthMultiplier: 1, ConvOperands(input: i.baseAddress!, inputShape: shape, filter: w.baseAddress!,
                                                    filterShape: filterShape, bias: nil, output: $0.baseAddress!, outputShape: shape))
            }
        }}
        let optimised = optimizedDepthwise(variant, params, multiplier: 1, input: input, inShape: shape, filter: filter,
                                           filterShape: filterShape, bias: nil, outShape: shape, pool: ThreadPool(threadCount: 1))
        #expect(optimised == reference)
        #expect(Set(reference).count > 1)   // corners and centre differ: the sums are not all clamped
    }

    /// The small-channel path (at most 8 input channels, windows read in place from a
    /// zero-point-bordered int16 image): filter rows of odd and even length, kernels up to 5x5,
    /// strides 1 to 3, both paddings, batches of 1 and 2, on 1 and 3 threads.
    @Test(arguments: hostVariants, [1, 3])
    func smallChannelConv2DMatchesReference(variant: InstructionSet, threads: Int) {
        let pool = ThreadPool(threadCount: threads)
        var rng = SplitMix64(seed: 105)
        var compared = 0
        for trial in 0..<60 {
            let inShape = NHWC(batch: Int.random(in: 1...2, using: &rng), height: Int.random(in: 1...17, using: &rng),
                               width: Int.random(in: 1...17, using: &rng), channels: Int.random(in: 1...8, using: &rng))
            let kh = Int.random(in: 1...5, using: &rng), kw = Int.random(in: 2...5, using: &rng)
            let stride = Int.random(in: 1...3, using: &rng)
            let padding: PaddingScheme = Bool.random(using: &rng) ? .same : .valid
            guard let (g, oh, ow) = ConvGeometry.make(padding: padding, inputHeight: inShape.height, inputWidth: inShape.width,
                                                      filterHeight: kh, filterWidth: kw, strideHeight: stride, strideWidth: stride),
                  oh > 0, ow > 0 else { continue }
            let outChannels = Int.random(in: 1...40, using: &rng)
            let filterShape = NHWC(batch: outChannels, height: kh, width: kw, channels: inShape.channels)
            let outShape = NHWC(batch: inShape.batch, height: oh, width: ow, channels: outChannels)
            let params = randomParams(&rng, geometry: g, channels: outChannels, wideMultipliers: trial % 4 == 1)
            let input = random(inShape.elementCount, &rng), filter = random(filterShape.elementCount, &rng)
            let bias = (0..<outChannels).map { _ in Int32.random(in: -5000...5000, using: &rng) }
            let (reference, optimised, inPlace) = run(variant, params, input: input, inShape: inShape, filter: filter,
                                                      filterShape: filterShape, bias: bias, outShape: outShape, pool: pool)
            #expect(inPlace)
            #expect(optimised == reference, "\(variant) trial \(trial): \(inShape) k\(kh)x\(kw) s\(stride) \(padding)")
            compared += 1
        }
        #expect(compared > 40)
    }

    /// The sums of the convolution at their extremes: every product 128 * 128 over a depth of
    /// 1000 (pairs of them summed in one int32 lane), on 1 and 3 threads, with extreme zero
    /// points so the folded bias is extreme too.
    @Test(arguments: hostVariants, [(Int8(127), Int32(-128), 1), (Int8(-128), Int32(127), 3)])
    func conv2DExtremesMatchReference(variant: InstructionSet, extremes: (value: Int8, zeroPoint: Int32, threads: Int)) {
        let (value, zeroPoint, threads) = extremes
        let pool = ThreadPool(threadCount: threads)
        let inShape = NHWC(batch: 1, height: 3, width: 5, channels: 1000)
        let filterShape = NHWC(batch: 19, height: 1, width: 1, channels: 1000)
        let outShape = NHWC(batch: 1, height: 3, width: 5, channels: 19)
        let (g, _, _) = ConvGeometry.make(padding: .valid, inputHeight: 3, inputWidth: 5, filterHeight: 1, filterWidth: 1,
                                          strideHeight: 1, strideWidth: 1)!
        let params = QuantizedConvParams.make(geometry: g, input: AffineQuantization(scale: 0.01, zeroPoint: zeroPoint),
                                              filterScales: [Float](repeating: 0.00001, count: 19), filterZeroPoint: 0,
                                              output: AffineQuantization(scale: 2, zeroPoint: 0), outputChannels: 19,
                                              activation: .none, qmin: -128, qmax: 127)!
        let input = [Int8](repeating: value, count: inShape.elementCount)
        // Two channels of -128 (the largest products), the others mixed so outputs differ.
        let filter = (0..<filterShape.elementCount).map { i -> Int8 in i / 1000 < 2 ? -128 : Int8(truncatingIfNeeded: i &* 37) }
        let (reference, optimised, _) = run(variant, params, input: input, inShape: inShape, filter: filter,
                                            filterShape: filterShape, bias: nil, outShape: outShape, pool: pool)
        #expect(optimised == reference)
        #expect(Set(reference).count > 1)
    }

    /// Requantisation at the edges of the fixed-point arithmetic, beyond what real scales give:
    /// any multiplier in [0, 2^31) (0, 1, 2^30, Int32.max and random ones), every shift from
    /// -31 to 8, biases up to the int32 extremes (wrapping sums, so the rescaled value covers
    /// the whole int32 range and both signs), and inputs at the zero point so the accumulator
    /// equals the bias exactly.
    @Test(arguments: hostVariants)
    func extremeRequantizationMatchesReference(variant: InstructionSet) {
        var rng = SplitMix64(seed: 104)
        for trial in 0..<80 {
            let channels = Int.random(in: 1...37, using: &rng)
            let inShape = NHWC(batch: 1, height: 2, width: 3, channels: channels)
            let (g, _, _) = ConvGeometry.make(padding: .same, inputHeight: 2, inputWidth: 3, filterHeight: 3, filterWidth: 3,
                                              strideHeight: 1, strideWidth: 1)!
            var params = randomParams(&rng, geometry: g, channels: channels)
            params.outputMultipliers = (0..<channels).map { c in
                let m: Int32 = [.max, 0, 1, 1 << 30, Int32.random(in: 0 ... .max, using: &rng)][Int.random(in: 0...4, using: &rng)]
                // Every shift appears: channel c of trial t takes shift (t + c) mod 40 - 31.
                return QuantizedMultiplier(multiplier: m, shift: (trial + c) % 40 - 31)
            }
            let atZeroPoint = trial % 2 == 0
            let input = atZeroPoint ? [Int8](repeating: Int8(-params.inputOffset), count: inShape.elementCount)
                                    : random(inShape.elementCount, &rng)
            let bias = (0..<channels).map { _ in
                [Int32.min, .max, -1, 0, Int32.random(in: .min ... .max, using: &rng)][Int.random(in: 0...4, using: &rng)]
            }
            let (reference, optimised, dwReference, dwOptimised) = runBoth(variant, params, input: input, shape: inShape, bias: bias,
                                                                           rng: &rng)
            #expect(optimised == reference, "\(variant) trial \(trial)")
            #expect(dwOptimised == dwReference, "\(variant) trial \(trial)")
        }
    }

    /// A 1x1 convolution of one input channel to `channels` outputs over a 16x16 image whose
    /// 256 pixels hold every int8 value, so channel c's sums are `bias[c] + w[c] * (v + inputOffset)`
    /// for every `v`: the requantisation sweeps' layer.
    private struct EveryInt8Sweep {
        let inShape: NHWC, outShape: NHWC, filterShape: NHWC
        let geometry: ConvGeometry
        let input = (0..<256).map { Int8(truncatingIfNeeded: $0) }

        init(channels: Int) {
            inShape = NHWC(batch: 1, height: 16, width: 16, channels: 1)
            outShape = NHWC(batch: 1, height: 16, width: 16, channels: channels)
            filterShape = NHWC(batch: channels, height: 1, width: 1, channels: 1)
            geometry = ConvGeometry.make(padding: .valid, inputHeight: 16, inputWidth: 16, filterHeight: 1, filterWidth: 1,
                                         strideHeight: 1, strideWidth: 1)!.geometry
        }
    }

    /// The vector requantisation against the scalar one over many accumulators: a 1x1
    /// convolution of one input channel, whose 256 pixels hold every int8 value, so channel c's
    /// sums are `bias[c] + w[c] * (v + inputOffset)` around a random bias (biases near the
    /// int32 extremes wrap). Every shift from -31 to 31 (channel c shifts by c - 31; the left
    /// shifts wrap in int32, as TFLite's do) and multipliers from 0 to Int32.max. With
    /// `rightShiftsOnly`, every shift from -31 to -1 (channel c shifts by -(c mod 31) - 1): the
    /// layers real models have, which the portable build requantises with a multiply in place
    /// of the per-lane shift.
    @Test(arguments: hostVariants, [false, true])
    func requantizationSweepMatchesReference(variant: InstructionSet, rightShiftsOnly: Bool) {
        var rng = SplitMix64(seed: 106)
        let channels = 63
        let sweep = EveryInt8Sweep(channels: channels)
        let (inShape, outShape, filterShape, g, input) = (sweep.inShape, sweep.outShape, sweep.filterShape, sweep.geometry, sweep.input)
        var unclamped = 0
        for trial in 0..<300 {
            var params = randomParams(&rng, geometry: g, channels: channels)
            params.activation = ActivationRange(min: -128, max: 127)
            params.outputMultipliers = (0..<channels).map { c in
                let m: Int32 = [.max, 1 << 30, Int32.random(in: 1 << 30 ... .max, using: &rng),
                                Int32.random(in: 0 ... .max, using: &rng)][Int.random(in: 0...3, using: &rng)]
                return QuantizedMultiplier(multiplier: m, shift: rightShiftsOnly ? -(c % 31) - 1 : c - 31)
            }
            let bias = (0..<channels).map { _ -> Int32 in
                let scale = Int32(1) << Int32.random(in: 0...30, using: &rng)
                return Int32.random(in: -scale...scale, using: &rng) &+ (trial % 5 == 0 ? Int32.max : 0)
            }
            let filter = random(channels, &rng)
            let (reference, optimised, _) = run(variant, params, input: input, inShape: inShape, filter: filter,
                                                filterShape: filterShape, bias: bias, outShape: outShape, pool: ThreadPool(threadCount: 1))
            #expect(optimised == reference, "\(variant) trial \(trial)")
            if optimised != reference { break }
            unclamped += reference.count { $0 != -128 && $0 != 127 }
        }
        // Most sums saturate; enough must land inside the range for the rounding to show.
        #expect(unclamped > 100_000)
    }

    /// The clamps the requantisation specialises on, with the output zero point they are tried
    /// with: the whole int8 range (saturating narrow, sums of both signs reach the output); a
    /// RELU at zero point -128 (the same range, negative sums end at the minimum); a RELU6
    /// (clamped, negative sums at the minimum); a clamp around the zero point (clamped, both
    /// signs reach the output).
    static let requantizationClamps: [(min: Int32, max: Int32, zeroPoint: Int32)] = [
        (-128, 127, 3), (-128, 127, -128), (-20, 107, -20), (-9, 40, 11),
    ]

    /// The requantisation of layers whose shifts are all right shifts of at most 23 bits (every
    /// real layer's), on each of ``requantizationClamps``: the AVX-512 variants take their
    /// signed form there. A 1x1 convolution of one input channel whose 256 pixels hold every
    /// int8 value; channel c shifts right by c mod 24, with multipliers from 0 to Int32.max and
    /// random biases of every magnitude, so the sums cover both signs and the rounding ties.
    @Test(arguments: hostVariants, 0..<4)
    func shortShiftRequantizationMatchesReference(variant: InstructionSet, clamp: Int) {
        var rng = SplitMix64(seed: 107)
        let channels = 48
        let sweep = EveryInt8Sweep(channels: channels)
        let (inShape, outShape, filterShape, g, input) = (sweep.inShape, sweep.outShape, sweep.filterShape, sweep.geometry, sweep.input)
        let (minimum, maximum, zeroPoint) = Self.requantizationClamps[clamp]
        var inside = 0
        for trial in 0..<200 {
            var params = randomParams(&rng, geometry: g, channels: channels)
            params.outputOffset = zeroPoint
            params.activation = ActivationRange(min: minimum, max: maximum)
            params.outputMultipliers = (0..<channels).map { c in
                let m: Int32 = [.max, 0, 1 << 30, Int32.random(in: 1 << 30 ... .max, using: &rng),
                                Int32.random(in: 0 ... .max, using: &rng)][Int.random(in: 0...4, using: &rng)]
                return QuantizedMultiplier(multiplier: m, shift: -(c % 24))
            }
            let bias = (0..<channels).map { c -> Int32 in
                // Around the sums that land in the output range at this channel's shift.
                let scale = Int32(1) << Int32(min(30, c % 24 + Int.random(in: 0...8, using: &rng)))
                return Int32.random(in: -scale...scale, using: &rng)
            }
            let filter = random(channels, &rng)
            let (reference, optimised, _) = run(variant, params, input: input, inShape: inShape, filter: filter,
                                                filterShape: filterShape, bias: bias, outShape: outShape, pool: ThreadPool(threadCount: 1))
            #expect(optimised == reference, "\(variant) clamp \(clamp) trial \(trial)")
            if optimised != reference { break }
            inside += reference.count { $0 != minimum && $0 != maximum }
        }
        // Enough results must land strictly inside the clamp for the rounding to show.
        #expect(inside > 200_000)
    }

    /// A negative multiplier (only a negative scale, which prepare refuses, gives one; Int32.min
    /// among them, whose doubling high multiply saturates) or a shift beyond 31 either way has no
    /// vector requantisation: both optimised layers decline it, leaving the reference kernel.
    @Test(arguments: hostVariants, [QuantizedMultiplier(multiplier: .min, shift: 0), QuantizedMultiplier(multiplier: -(1 << 30), shift: -3),
                                    QuantizedMultiplier(multiplier: 1 << 30, shift: -32), QuantizedMultiplier(multiplier: 1 << 30, shift: 32)])
    func unrepresentableRequantizationIsDeclined(variant: InstructionSet, _ m: QuantizedMultiplier) {
        let k = kernels(variant)
        let shape = NHWC(batch: 1, height: 2, width: 3, channels: 2)
        var rng = SplitMix64(seed: 105)
        let (g, _, _) = ConvGeometry.make(padding: .same, inputHeight: 2, inputWidth: 3, filterHeight: 3, filterWidth: 3,
                                          strideHeight: 1, strideWidth: 1)!
        var params = randomParams(&rng, geometry: g, channels: 2)
        params.outputMultipliers = [QuantizedMultiplier(multiplier: 1 << 30, shift: -2), m]
        let filter = random(9 * 2 * 2, &rng)
        filter.withUnsafeBufferPointer { w in
            #expect(k.int8Conv2D(params, w.baseAddress!, NHWC(batch: 2, height: 3, width: 3, channels: 2), nil, shape, shape, 1) == nil)
            #expect(k.int8DepthwiseConv2D(params, 1, w.baseAddress!, NHWC(batch: 1, height: 3, width: 3, channels: 2), nil,
                                          shape, shape, 1) == nil)
        }
        params.outputMultipliers[1] = QuantizedMultiplier(multiplier: 1 << 30, shift: -31)
        filter.withUnsafeBufferPointer { w in
            #expect(k.int8DepthwiseConv2D(params, 1, w.baseAddress!, NHWC(batch: 1, height: 3, width: 3, channels: 2), nil,
                                          shape, shape, 1) != nil)
        }
    }

    /// A same-size 3x3 CONV_2D and DEPTHWISE_CONV_2D over `shape` through the reference and the
    /// optimised kernels, with random filters.
    private func runBoth(_ variant: InstructionSet, _ params: QuantizedConvParams, input: [Int8], shape: NHWC, bias: [Int32],
                         rng: inout SplitMix64) -> (reference: [Int8], optimised: [Int8], dwReference: [Int8], dwOptimised: [Int8]) {
        let channels = shape.channels
        let filter = random(9 * channels * channels, &rng), dwFilter = random(9 * channels, &rng)
        let filterShape = NHWC(batch: channels, height: 3, width: 3, channels: channels)
        let dwShape = NHWC(batch: 1, height: 3, width: 3, channels: channels)
        let pool = ThreadPool(threadCount: 1)
        let (reference, optimised, _) = run(variant, params, input: input, inShape: shape, filter: filter, filterShape: filterShape,
                                            bias: bias, outShape: shape, pool: pool)
        var dwReference = [Int8](repeating: 0, count: shape.elementCount)
        input.withUnsafeBufferPointer { i in bias.withUnsafeBufferPointer { bb in dwFilter.withUnsafeBufferPointer { w in
            dwReference.withUnsafeMutableBufferPointer {
                DepthwiseConv2D.Quantized.reference(params, depthMultiplier: 1, ConvOperands(input: i.baseAddress!, inputShape: shape, filter: w.baseAddress!,
                                                    filterShape: dwShape, bias: bb.baseAddress, output: $0.baseAddress!, outputShape: shape))
            }
        }}}
        let dwOptimised = optimizedDepthwise(variant, params, multiplier: 1, input: input, inShape: shape, filter: dwFilter,
                                             filterShape: dwShape, bias: bias, outShape: shape, pool: pool)!
        return (reference, optimised, dwReference, dwOptimised)
    }

    /// The vectorised same-shape int8 ADD against the reference on random scales, zero points
    /// and activations, over every pair of input values (65,536 elements, then a scalar tail),
    /// on one thread and three. (Its input rescale alone is checked in `Int8AddRescaleTests`:
    /// through the output's rescale, one unit off rarely shows.)
    @Test(arguments: hostVariants, [1, 3])
    func addMatchesReferenceOnEveryPair(variant: InstructionSet, threads: Int) {
        var rng = SplitMix64(seed: 103)
        let pool = ThreadPool(threadCount: threads)
        let count = 65_536 + 13
        let a = (0..<count).map { Int8(truncatingIfNeeded: $0) }, b = (0..<count).map { Int8(truncatingIfNeeded: $0 >> 8) }
        var vectorised = 0, fallbacks = 0
        for trial in 0..<24 {
            func quantization() -> AffineQuantization {
                AffineQuantization(scale: Float.random(in: 0.001...0.5, using: &rng), zeroPoint: Int32.random(in: -128...127, using: &rng))
            }
            let (qa, qb, qy) = (quantization(), quantization(), quantization())
            let activation: FusedActivation = [.none, .relu, .relu6, .reluN1To1][trial % 4]
            guard let params = QuantizedAddParams.make(input1: qa, input2: qb, output: qy, activation: activation, qmin: -128, qmax: 127)
            else { continue }
            guard let kernel = kernels(variant).int8Add(params, count) else {
                fallbacks += 1
                continue
            }
            var reference = [Int8](repeating: 0, count: count), optimised = reference
            a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in
                reference.withUnsafeMutableBufferPointer {
                    Elementwise.Quantized.rescaledBinary(.add, params, x.baseAddress!, shape: [count], y.baseAddress!, shape: [count],
                                                         output: $0.baseAddress!, outputShape: [count])
                }
                optimised.withUnsafeMutableBufferPointer {
                    kernel(BinaryOperands(a: x.baseAddress!, b: y.baseAddress!, output: $0.baseAddress!), pool)
                }
            }}
            let wrong = (0..<count).filter { optimised[$0] != reference[$0] }
            #expect(wrong.isEmpty, "\(variant) trial \(trial): \(wrong.count) wrong, first at a = \(wrong.first.map { a[$0] } ?? 0), b = \(wrong.first.map { b[$0] } ?? 0)")
            vectorised += 1
        }
        // Scales at most 500 times apart all have the exact 32-bit rescale.
        #expect(vectorised >= 20 && fallbacks == 0, "\(vectorised) vectorised, \(fallbacks) fell back")
    }

    /// Input scales more than 2^12 apart leave the exact 32-bit rescale: no vector kernel (the
    /// plan takes the reference).
    @Test(arguments: hostVariants)
    func addWithFarApartScalesTakesTheReference(variant: InstructionSet) {
        let params = QuantizedAddParams.make(input1: AffineQuantization(scale: 1, zeroPoint: 0),
                                             input2: AffineQuantization(scale: 1.0 / 10_000, zeroPoint: 0),
                                             output: AffineQuantization(scale: 1, zeroPoint: 0), activation: .none, qmin: -128, qmax: 127)!
        #expect(kernels(variant).int8Add(params, 64) == nil)
        let near = QuantizedAddParams.make(input1: AffineQuantization(scale: 1, zeroPoint: 0),
                                           input2: AffineQuantization(scale: 1.0 / 4_000, zeroPoint: 0),
                                           output: AffineQuantization(scale: 1, zeroPoint: 0), activation: .none, qmin: -128, qmax: 127)!
        #expect(kernels(variant).int8Add(near, 64) != nil)
    }

    @Test(arguments: hostVariants, [1, 3])
    func fullyConnectedMatchesReference(variant: InstructionSet, threads: Int) {
        let pool = ThreadPool(threadCount: threads)
        var rng = SplitMix64(seed: 102)
        for trial in 0..<80 {
            let (batches, depth, units) = (Int.random(in: 1...3, using: &rng), Int.random(in: 1...160, using: &rng), Int.random(in: 1...13, using: &rng))
            let perChannel = Bool.random(using: &rng)
            let input = AffineQuantization(scale: 0.02, zeroPoint: Int32.random(in: -128...127, using: &rng))
            let output = AffineQuantization(scale: Float.random(in: 0.02...0.3, using: &rng), zeroPoint: Int32.random(in: -128...127, using: &rng))
            let scales = (0..<(perChannel ? units : 1)).map { _ in Float.random(in: 0.001...0.02, using: &rng) }
            let params = QuantizedFullyConnectedParams.make(input: input, filterScales: scales, filterZeroPoint: 0, output: output,
                                                            activation: .none, qmin: -128, qmax: 127, rounding: .single)!
            let x = random(batches * depth, &rng), w = random(units * depth, &rng)
            let bias = (0..<units).map { _ in Int32.random(in: -5000...5000, using: &rng) }
            var reference = [Int8](repeating: 0, count: batches * units), optimised = reference
            x.withUnsafeBufferPointer { i in w.withUnsafeBufferPointer { f in bias.withUnsafeBufferPointer { bb in
                reference.withUnsafeMutableBufferPointer {
                    FullyConnected.Quantized.reference(params, input: i.baseAddress!, batches: batches, inputDepth: depth, filter: f.baseAddress!,
                                                       outputDepth: units, bias: bb.baseAddress, output: $0.baseAddress!)
                }
                let kernel = kernels(variant).int8FullyConnected(params, f.baseAddress!, batches, depth, units, bb.baseAddress)
                optimised.withUnsafeMutableBufferPointer {
                    kernel.run(input: i.baseAddress!, output: $0.baseAddress!, scratch: nil, pool: pool)
                }
            }}}
            #expect(optimised == reference, "\(variant) trial \(trial)")
        }
    }

    @Test(arguments: hostVariants, Conv2DQuantizedTests.cases.filter { $0.inputs[0]!.dtype == "int8" })
    func optimisedConv2DMatchesLiteRT(variant: InstructionSet, _ f: QuantizedOpFixture) {
        let input = f.inputs[0]!, filter = f.inputs[1]!, output = f.outputs[0]
        let geometry = f.convolutionGeometry
        let params = QuantizedConvParams.make(geometry: geometry, input: input.quantization, filterScales: filter.scales.map(Float.init),
                                              filterZeroPoint: 0, output: output.quantization, outputChannels: filter.shape[0],
                                              activation: f.fusedActivation, qmin: -128, qmax: 127)!
        let bias = f.inputs[2]?.values(Int32.self)
        let actual = runBinary(Int8.self, input, filter, outputCount: output.count) { i, w, o in
            withOptionalPointer(bias) { b in
                let kernel = kernels(variant).int8Conv2D(params, w, filter.nhwc, b, input.nhwc, output.nhwc, 1)!
                var scratch = [Int8](repeating: 0, count: max(kernel.scratchBytes, 1))
                scratch.withUnsafeMutableBufferPointer { s in
                    kernel.run(input: i, output: o, scratch: s.baseAddress, pool: ThreadPool(threadCount: 1))
                }
            }
        }
        let diff = UnitDifference(actual, output.values(Int64.self))
        #expect(diff.isExact, "\(variant) \(f): \(diff)")
    }
}
