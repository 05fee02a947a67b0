import TestSupport
import Testing
@testable import Kernels

/// Runs the reference CONV_2D on arrays.
func referenceConv2D(_ params: Conv2DParams, _ input: [Float], _ inShape: NHWC, _ filter: [Float], _ fShape: NHWC,
                     _ bias: [Float]?, _ outShape: NHWC) -> [Float] {
    var out = [Float](repeating: .nan, count: outShape.elementCount)
    input.withUnsafeBufferPointer { i in
        filter.withUnsafeBufferPointer { f in
            out.withUnsafeMutableBufferPointer { o in
                if let bias {
                    bias.withUnsafeBufferPointer { b in
                        Conv2D.reference(params: params, ConvOperands(input: i.baseAddress!, inputShape: inShape, filter: f.baseAddress!,
                                         filterShape: fShape, bias: b.baseAddress!, output: o.baseAddress!, outputShape: outShape))
                    }
                } else {
                    Conv2D.reference(params: params, ConvOperands(input: i.baseAddress!, inputShape: inShape, filter: f.baseAddress!,
                                     filterShape: fShape, bias: nil, output: o.baseAddress!, outputShape: outShape))
                }
            }
        }
    }
    return out
}

/// A convolution written the other way round: pad the input explicitly, then slide a VALID
/// window. Independent of the kernel's bounds logic.
func paddedConv2D(_ input: [Float], _ s: NHWC, _ filter: [Float], _ f: NHWC, _ bias: [Float]?, _ g: ConvGeometry,
                  _ o: NHWC, _ act: ActivationRange<Float>) -> [Float] {
    let ph = s.height + g.paddingHeight.before + g.paddingHeight.after + f.height * g.dilationHeight * g.strideHeight
    let pw = s.width + g.paddingWidth.before + g.paddingWidth.after + f.width * g.dilationWidth * g.strideWidth
    var padded = [Float](repeating: 0, count: s.batch * ph * pw * s.channels)
    for b in 0..<s.batch { for y in 0..<s.height { for x in 0..<s.width { for c in 0..<s.channels {
        let dst: Int = ((b * ph + y + g.paddingHeight.before) * pw + x + g.paddingWidth.before) * s.channels + c
        padded[dst] = input[((b * s.height + y) * s.width + x) * s.channels + c]
    } } } }
    let groupDepth = f.channels, perGroup = o.channels / (s.channels / groupDepth)
    var out = [Float](repeating: 0, count: o.elementCount)
    for b in 0..<o.batch { for y in 0..<o.height { for x in 0..<o.width { for oc in 0..<o.channels {
        var acc = Double(bias?[oc] ?? 0)
        for fy in 0..<f.height { for fx in 0..<f.width { for ic in 0..<groupDepth {
            let py: Int = y * g.strideHeight + fy * g.dilationHeight
            let px: Int = x * g.strideWidth + fx * g.dilationWidth
            let channel: Int = (oc / perGroup) * groupDepth + ic
            let inIndex: Int = ((b * ph + py) * pw + px) * s.channels + channel
            let fIndex: Int = ((oc * f.height + fy) * f.width + fx) * groupDepth + ic
            acc += Double(padded[inIndex]) * Double(filter[fIndex])
        } } }
        out[((b * o.height + y) * o.width + x) * o.channels + oc] = act.clamp(Float(acc))
    } } } }
    return out
}

/// A random CONV_2D problem.
struct ConvCase: CustomStringConvertible {
    var input: NHWC, filter: NHWC, output: NHWC, params: Conv2DParams
    var description: String { "in \(input.dims) filter \(filter.dims) stride \(params.geometry.strideHeight)x\(params.geometry.strideWidth) dil \(params.geometry.dilationHeight)" }

    static func random(_ rng: inout SplitMix64, pointwise: Bool = false, groups: Int = 1) -> ConvCase {
        let cin = rng.int(1...9) * groups, cout = rng.int(1...19) * groups
        let fh = pointwise ? 1 : rng.int(1...4), fw = pointwise ? 1 : rng.int(1...4)
        let sh = pointwise ? 1 : rng.int(1...3), sw = pointwise ? 1 : rng.int(1...3)
        let dh = pointwise ? 1 : rng.int(1...2), dw = pointwise ? 1 : rng.int(1...2)
        let h = rng.int(((fh - 1) * dh + 1)...12), w = rng.int(((fw - 1) * dw + 1)...12)
        let scheme: PaddingScheme = rng.int(0...1) == 0 ? .same : .valid
        let made = ConvGeometry.make(padding: pointwise ? .valid : scheme, inputHeight: h, inputWidth: w, filterHeight: fh, filterWidth: fw,
                                     strideHeight: sh, strideWidth: sw, dilationHeight: dh, dilationWidth: dw)!
        let act = [FusedActivation.none, .relu, .relu6, .reluN1To1][rng.int(0...3)].floatRange!
        return ConvCase(input: NHWC(batch: rng.int(1...2), height: h, width: w, channels: cin),
                        filter: NHWC(batch: cout, height: fh, width: fw, channels: cin / groups),
                        output: NHWC(batch: 0, height: made.outputHeight, width: made.outputWidth, channels: cout),
                        params: Conv2DParams(geometry: made.geometry, activation: act)).withBatch()
    }

    func withBatch() -> ConvCase { var c = self; c.output.batch = input.batch; return c }
}

@Suite struct Conv2DTests {
    @Test func onesFilterCountsTheInBoundsWindow() {
        // 3x3 ones over a 3x3 ones image with SAME padding: each output counts the window
        // elements inside the image (4 at corners, 6 on edges, 9 in the centre).
        let s = NHWC(batch: 1, height: 3, width: 3, channels: 1), f = NHWC(batch: 1, height: 3, width: 3, channels: 1)
        let g = ConvGeometry.make(padding: .same, inputHeight: 3, inputWidth: 3, filterHeight: 3, filterWidth: 3, strideHeight: 1, strideWidth: 1)!
        let out = referenceConv2D(Conv2DParams(geometry: g.geometry, activation: FusedActivation.none.floatRange!),
                                  [Float](repeating: 1, count: 9), s, [Float](repeating: 1, count: 9), f, nil, s)
        let expected: [Float] = (0..<9).map { i in
            let rows: Float = (i / 3 == 1) ? 3 : 2, cols: Float = (i % 3 == 1) ? 3 : 2
            return rows * cols
        }
        #expect(out == expected)
    }

    @Test(arguments: 0..<40)
    func referenceMatchesExplicitPadding(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        let c = ConvCase.random(&rng, groups: seed % 5 == 0 ? 2 : 1)
        let input = rng.floats(c.input.elementCount), filter = rng.floats(c.filter.elementCount)
        let bias = seed % 2 == 0 ? rng.floats(c.output.channels) : nil
        let got = referenceConv2D(c.params, input, c.input, filter, c.filter, bias, c.output)
        let want = paddedConv2D(input, c.input, filter, c.filter, bias, c.params.geometry, c.output, c.params.activation)
        let depth = c.filter.height * c.filter.width * c.filter.channels
        #expect(maxAbsDifference(got, want) <= reductionTolerance(depth), "\(c)")
    }

    @Test(arguments: hostVariants, 0..<40)
    func optimizedMatchesReference(variant: InstructionSet, seed: Int) {
        var rng = SplitMix64(seed: UInt64(1000 + seed))
        let c = ConvCase.random(&rng, pointwise: seed % 4 == 0)
        let input = rng.floats(c.input.elementCount), filter = rng.floats(c.filter.elementCount)
        let bias = seed % 3 == 0 ? nil : rng.floats(c.output.channels)
        let want = referenceConv2D(c.params, input, c.input, filter, c.filter, bias, c.output)
        let pool = ThreadPool(threadCount: 1 + seed % 3)
        let got = optimizedConv2D(variant, c.params, input, c.input, filter, c.filter, bias, c.output, pool: pool)
        let depth = c.filter.height * c.filter.width * c.filter.channels
        #expect(maxAbsDifference(got, want) <= reductionTolerance(depth), "\(variant) \(c)")
    }

    /// The direct-rows path: first layers on RGB pixels (to 16 outputs, and to 8 or 5, which
    /// the AVX-512 tiles compute in half-width registers) and detector heads (40 channels to 12
    /// or 24 outputs), with windows that leave the input on the left, right, top and bottom, two
    /// images, a residual, 1 and 3 threads. The edge columns of a run of interior rows are
    /// gathered down the run; writing them a pixel apart instead of a row apart fails here.
    @Test(arguments: hostVariants, [(3, 16), (40, 12), (40, 24), (3, 8), (3, 5)])
    func directRowsMatchReference(variant: InstructionSet, channels: (input: Int, output: Int)) {
        var rng = SplitMix64(seed: 4321)
        for (padding, size, stride) in [(PaddingScheme.same, 3, 2), (.same, 5, 1), (.valid, 3, 2), (.same, 3, 1)] {
            let s = NHWC(batch: 2, height: 19, width: 23, channels: channels.input)
            let f = NHWC(batch: channels.output, height: size, width: size, channels: channels.input)
            let g = ConvGeometry.make(padding: padding, inputHeight: 19, inputWidth: 23, filterHeight: size, filterWidth: size,
                                      strideHeight: stride, strideWidth: stride)!
            let o = NHWC(batch: 2, height: g.outputHeight, width: g.outputWidth, channels: channels.output)
            let params = Conv2DParams(geometry: g.geometry, activation: FusedActivation.none.floatRange!)
            let input = rng.floats(s.elementCount), filter = rng.floats(f.elementCount), bias = rng.floats(channels.output)
            let skip = rng.floats(o.elementCount)
            let plain = referenceConv2D(params, input, s, filter, f, bias, o)
            let want = zip(plain, skip).map { $0 + $1 }
            for threads in [1, 3] {
                let got = optimizedConv2D(variant, params, input, s, filter, f, bias, o, pool: ThreadPool(threadCount: threads),
                                          residual: skip, residualChannels: channels.output)
                #expect(maxAbsDifference(got, want) <= reductionTolerance(size * size * channels.input),
                        "\(channels) \(padding) \(size)x\(size)/\(stride), \(threads) threads")
            }
        }
    }

    @Test(arguments: hostVariants)
    func largeOptimizedMatchesReference(variant: InstructionSet) {
        // Many rows and channels: several im2col blocks, depth 360 (two GEMM depth blocks),
        // full and partial panels, four threads.
        var rng = SplitMix64(seed: 77)
        let s = NHWC(batch: 1, height: 29, width: 31, channels: 40), f = NHWC(batch: 37, height: 3, width: 3, channels: 40)
        let g = ConvGeometry.make(padding: .same, inputHeight: 29, inputWidth: 31, filterHeight: 3, filterWidth: 3, strideHeight: 1, strideWidth: 1)!
        let o = NHWC(batch: 1, height: g.outputHeight, width: g.outputWidth, channels: 37)
        let params = Conv2DParams(geometry: g.geometry, activation: FusedActivation.relu6.floatRange!)
        let input = rng.floats(s.elementCount), filter = rng.floats(f.elementCount), bias = rng.floats(37)
        let want = referenceConv2D(params, input, s, filter, f, bias, o)
        let got = optimizedConv2D(variant, params, input, s, filter, f, bias, o, pool: ThreadPool(threadCount: 4))
        #expect(maxAbsDifference(got, want) <= reductionTolerance(3 * 3 * 40))
    }

    /// A pointwise layer of 300 outputs in 19 panels: over few pixels (7x7 and 3x5 maps) the
    /// pool splits it by panels, over a 14x14 map by rows into shares that are no whole number
    /// of tiles (98, or 66 and 65). Each output is the same dot product whatever the split, so
    /// two and three threads give the one-thread results exactly.
    @Test(arguments: hostVariants, [(7, 7), (3, 5), (14, 14)])
    func splitsAcrossThreadsGiveTheOneThreadResult(variant: InstructionSet, size: (height: Int, width: Int)) {
        var rng = SplitMix64(seed: UInt64(size.height * 10 + size.width))
        let s = NHWC(batch: 1, height: size.height, width: size.width, channels: 64), f = NHWC(batch: 300, height: 1, width: 1, channels: 64)
        let g = ConvGeometry.make(padding: .same, inputHeight: size.height, inputWidth: size.width, filterHeight: 1, filterWidth: 1,
                                  strideHeight: 1, strideWidth: 1)!
        let o = NHWC(batch: 1, height: size.height, width: size.width, channels: 300)
        let params = Conv2DParams(geometry: g.geometry, activation: FusedActivation.relu6.floatRange!)
        let input = rng.floats(s.elementCount), filter = rng.floats(f.elementCount), bias = rng.floats(300)
        let one = optimizedConv2D(variant, params, input, s, filter, f, bias, o, pool: ThreadPool(threadCount: 1))
        #expect(maxAbsDifference(one, referenceConv2D(params, input, s, filter, f, bias, o)) <= reductionTolerance(64))
        for threads in [2, 3] {
            #expect(optimizedConv2D(variant, params, input, s, filter, f, bias, o, pool: ThreadPool(threadCount: threads)) == one,
                    "\(threads) threads")
        }
    }

    /// A detector head (10x10 and 20x20 outputs, 3x3 over 96 channels, 40 outputs) gathered in
    /// blocks balanced over the threads: each output is the same dot product whatever the
    /// blocking, so the results equal the one-thread results exactly.
    @Test(arguments: hostVariants, [10, 20])
    func im2colBlocksSplitEvenlyAndGiveTheOneThreadResult(variant: InstructionSet, size: Int) {
        var rng = SplitMix64(seed: UInt64(size))
        let s = NHWC(batch: 1, height: size, width: size, channels: 96), f = NHWC(batch: 40, height: 3, width: 3, channels: 96)
        let g = ConvGeometry.make(padding: .same, inputHeight: size, inputWidth: size, filterHeight: 3, filterWidth: 3,
                                  strideHeight: 1, strideWidth: 1)!
        let o = NHWC(batch: 1, height: size, width: size, channels: 40)
        #expect(Conv2D.path(params: Conv2DParams(geometry: g.geometry, activation: ActivationRange(min: -.infinity, max: .infinity)),
                            inputShape: s, filterShape: f) == .im2col)
        let params = Conv2DParams(geometry: g.geometry, activation: ActivationRange(min: -.infinity, max: .infinity))
        let input = rng.floats(s.elementCount), filter = rng.floats(f.elementCount), bias = rng.floats(40)
        let one = optimizedConv2D(variant, params, input, s, filter, f, bias, o, pool: ThreadPool(threadCount: 1))
        for threads in [2, 3] {
            let rows = Conv2D.im2colBlockRows(pixels: size * size, depth: 3 * 3 * 96, chunks: threads)
            let blocks = (size * size + rows - 1) / rows
            #expect(blocks % threads == 0 && rows <= Conv2D.im2colRows(depth: 3 * 3 * 96), "\(threads) threads: \(blocks) blocks of \(rows)")
            #expect(optimizedConv2D(variant, params, input, s, filter, f, bias, o, pool: ThreadPool(threadCount: threads)) == one)
        }
        #expect(maxAbsDifference(one, referenceConv2D(params, input, s, filter, f, bias, o)) <= reductionTolerance(3 * 3 * 96))
    }
}
