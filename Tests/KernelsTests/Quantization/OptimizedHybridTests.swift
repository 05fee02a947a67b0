import TestSupport
import Testing
import Kernels

/// The optimised hybrid convolutions and FULLY_CONNECTED (float activations, int8 weights) of
/// every variant against the reference hybrid kernels: the same quantised input, the same int32
/// sums and the same float arithmetic in the same order, so the outputs must be the same floats.
@Suite struct OptimizedHybridTests {
    /// One hybrid CONV_2D or DEPTHWISE_CONV_2D, run by the reference kernel and by a variant.
    struct Layer {
        var params: HybridConvParams
        var depthwise: Bool
        var input: [Float]
        var inputShape: NHWC
        var filter: [Int8]
        var filterShape: NHWC
        var bias: [Float]?
        var outputShape: NHWC

        func reference() -> [Float] {
            var output = [Float](repeating: .nan, count: outputShape.elementCount)
            var scratch = [Int8](repeating: 0, count: hybridScratchCount(inputShape))
            input.withUnsafeBufferPointer { i in filter.withUnsafeBufferPointer { w in withOptionalPointer(bias) { b in
                scratch.withUnsafeMutableBufferPointer { s in output.withUnsafeMutableBufferPointer { o in
                    let operands = ConvOperands(input: i.baseAddress!, inputShape: inputShape, filter: w.baseAddress!,
                                                filterShape: filterShape, bias: b, output: o.baseAddress!, outputShape: outputShape)
                    if depthwise {
                        DepthwiseConv2D.Hybrid.reference(params, depthMultiplier: 1, operands, scratch: s.baseAddress!)
                    } else {
                        Conv2D.Hybrid.reference(params, operands, scratch: s.baseAddress!)
                    }
                }}
            }}}
            return output
        }

        /// The output of `variant`'s kernel on `pool`, and the kernel's name.
        func optimized(_ variant: InstructionSet, pool: ThreadPool) -> (output: [Float], name: String) {
            let k = kernels(variant)
            let kernel = filter.withUnsafeBufferPointer { w in
                depthwise
                    ? k.hybridDepthwiseConv2D(params, 1, w.baseAddress!, filterShape, inputShape, outputShape, pool.threadCount)!
                    : k.hybridConv2D(params, w.baseAddress!, filterShape, inputShape, outputShape, pool.threadCount)
            }
            var output = [Float](repeating: .nan, count: outputShape.elementCount)
            // Scratch starts as garbage: the kernel must not read what it did not write.
            var scratch = [Int8](repeating: 0x55, count: kernel.scratchBytes)
            input.withUnsafeBufferPointer { i in withOptionalPointer(bias) { b in
                scratch.withUnsafeMutableBufferPointer { s in output.withUnsafeMutableBufferPointer { o in
                    kernel.run(input: i.baseAddress!, bias: b, output: o.baseAddress!, scratch: s.baseAddress!, pool: pool)
                }}
            }}
            return (output, kernel.name)
        }
    }

    /// A random layer: shapes, strides, dilations and paddings, weights in [-127, 127], weight
    /// scales per channel, an optional bias, a clamp, and inputs of either sign.
    static func randomLayer(_ rng: inout SplitMix64, depthwise: Bool, asymmetric: Bool, trial: Int) -> Layer? {
        let inputShape = NHWC(batch: Int.random(in: 1...2, using: &rng), height: Int.random(in: 1...9, using: &rng),
                              width: Int.random(in: 1...9, using: &rng), channels: Int.random(in: 1...40, using: &rng))
        let pointwise = !depthwise && trial % 3 == 0
        let k = pointwise ? 1 : Int.random(in: 1...(depthwise ? 5 : 3), using: &rng)
        let stride = pointwise ? 1 : Int.random(in: 1...2, using: &rng)
        let dilation = pointwise || trial % 4 != 1 ? 1 : 2
        let padding: PaddingScheme = pointwise || Bool.random(using: &rng) ? .same : .valid
        guard let (g, oh, ow) = ConvGeometry.make(padding: padding, inputHeight: inputShape.height, inputWidth: inputShape.width,
                                                  filterHeight: k, filterWidth: k, strideHeight: stride, strideWidth: stride,
                                                  dilationHeight: dilation, dilationWidth: dilation), oh > 0, ow > 0 else { return nil }
        let outChannels = depthwise ? inputShape.channels : Int.random(in: 1...40, using: &rng)
        let filterShape = depthwise ? NHWC(batch: 1, height: k, width: k, channels: outChannels)
                                    : NHWC(batch: outChannels, height: k, width: k, channels: inputShape.channels)
        let activations: [ActivationRange<Float>] = [ActivationRange(min: -.infinity, max: .infinity),
                                                     ActivationRange(min: 0, max: .infinity), ActivationRange(min: 0, max: 6)]
        let params = HybridConvParams(geometry: g, filterScales: (0..<outChannels).map { _ in Float.random(in: 0.001...0.05, using: &rng) },
                                      activation: activations[trial % 3], asymmetricInputs: asymmetric)
        // Inputs mostly of one sign every fourth trial, so the zero point sits near an end.
        let shift: Float = trial % 4 == 2 ? 2.5 : 0
        return Layer(params: params, depthwise: depthwise,
                     input: (0..<inputShape.elementCount).map { _ in Float.random(in: -3...3, using: &rng) + shift },
                     inputShape: inputShape,
                     filter: (0..<filterShape.elementCount).map { _ in Int8.random(in: -127...127, using: &rng) },
                     filterShape: filterShape,
                     bias: trial % 5 == 0 ? nil : (0..<outChannels).map { _ in Float.random(in: -1...1, using: &rng) },
                     outputShape: NHWC(batch: inputShape.batch, height: oh, width: ow, channels: outChannels))
    }

    @Test(arguments: hostVariants, [1, 3])
    func conv2DMatchesReference(variant: InstructionSet, threads: Int) {
        let pool = ThreadPool(threadCount: threads)
        var rng = SplitMix64(seed: 300)
        var compared = 0
        for trial in 0..<60 {
            guard let layer = Self.randomLayer(&rng, depthwise: false, asymmetric: trial % 2 == 0, trial: trial) else { continue }
            let (optimized, name) = layer.optimized(variant, pool: pool)
            #expect(name.hasPrefix("conv2d.f32-i8.") && !name.contains("reference"))
            #expect(optimized == layer.reference(), "\(variant) trial \(trial): \(layer.inputShape) -> \(layer.outputShape)")
            compared += 1
        }
        #expect(compared > 40)
    }

    @Test(arguments: hostVariants, [1, 3])
    func depthwiseConv2DMatchesReference(variant: InstructionSet, threads: Int) {
        let pool = ThreadPool(threadCount: threads)
        var rng = SplitMix64(seed: 301)
        var compared = 0
        for trial in 0..<60 {
            guard let layer = Self.randomLayer(&rng, depthwise: true, asymmetric: trial % 2 == 0, trial: trial) else { continue }
            let (optimized, name) = layer.optimized(variant, pool: pool)
            #expect(name.hasPrefix("depthwise.f32-i8.") && !name.contains("reference"))
            #expect(optimized == layer.reference(), "\(variant) trial \(trial): \(layer.inputShape) -> \(layer.outputShape)")
            compared += 1
        }
        #expect(compared > 40)
    }

    /// Hybrid FULLY_CONNECTED: batches of rows, depths that are and are not whole vectors,
    /// channel counts that are not multiples of four, per-tensor and per-channel weight scales,
    /// symmetric and asymmetric row quantisation, with and without a bias, on 1 and 3 threads.
    @Test(arguments: hostVariants, [1, 3])
    func fullyConnectedMatchesReference(variant: InstructionSet, threads: Int) {
        let pool = ThreadPool(threadCount: threads)
        var rng = SplitMix64(seed: 303)
        for trial in 0..<60 {
            let batches = Int.random(in: 1...3, using: &rng), depth = Int.random(in: 1...300, using: &rng)
            let outputs = Int.random(in: 1...(trial % 3 == 0 ? 7 : 300), using: &rng)
            let scales = (0..<(trial % 2 == 0 ? outputs : 1)).map { _ in Float.random(in: 0.001...0.05, using: &rng) }
            let activation = trial % 4 == 1 ? ActivationRange<Float>(min: 0, max: 6) : ActivationRange(min: -.infinity, max: .infinity)
            let asymmetric = trial % 3 != 2
            let input = (0..<(batches * depth)).map { _ in Float.random(in: -2...3, using: &rng) }
            let filter = (0..<(outputs * depth)).map { _ in Int8.random(in: -127...127, using: &rng) }
            let bias: [Float]? = trial % 5 == 0 ? nil : (0..<outputs).map { _ in Float.random(in: -1...1, using: &rng) }
            var reference = [Float](repeating: .nan, count: batches * outputs), optimized = reference
            var scratch = [Int8](repeating: 0x55, count: hybridScratchCount(batches: batches, batchSize: depth))
            let kernel = filter.withUnsafeBufferPointer {
                kernels(variant).hybridFullyConnected($0.baseAddress!, scales, batches, depth, outputs, activation, asymmetric)
            }
            #expect(kernel.name.hasPrefix("fully-connected.f32-i8.") && !kernel.name.contains("reference"))
            var kernelScratch = [Int8](repeating: 0x55, count: kernel.scratchBytes)
            input.withUnsafeBufferPointer { i in filter.withUnsafeBufferPointer { w in withOptionalPointer(bias) { b in
                scratch.withUnsafeMutableBufferPointer { s in reference.withUnsafeMutableBufferPointer { o in
                    FullyConnected.Hybrid.reference(filterScales: scales, activation: activation, asymmetricInputs: asymmetric,
                                                    input: i.baseAddress!, batches: batches, inputDepth: depth, filter: .int8(w.baseAddress!),
                                                    outputDepth: outputs, bias: b, output: o.baseAddress!, scratch: s.baseAddress!)
                }}
                kernelScratch.withUnsafeMutableBufferPointer { s in optimized.withUnsafeMutableBufferPointer { o in
                    kernel.run(input: i.baseAddress!, bias: b, output: o.baseAddress!, scratch: s.baseAddress!, pool: pool)
                }}
            }}}
            #expect(optimized == reference, "\(variant) trial \(trial): \(batches)x\(depth) -> \(outputs)")
        }
    }

    /// Inputs the vector quantisation hands to the reference: all zeros (no scale), a NaN, an
    /// infinity, and values so small that the scale is subnormal. The results must still be
    /// the reference's, whatever they are.
    @Test(arguments: hostVariants)
    func unusualInputsMatchReference(variant: InstructionSet) {
        var rng = SplitMix64(seed: 302)
        guard var layer = Self.randomLayer(&rng, depthwise: false, asymmetric: true, trial: 1) else {
            Issue.record("no layer")
            return
        }
        let count = layer.input.count
        let inputs: [[Float]] = [
            [Float](repeating: 0, count: count),
            (0..<count).map { $0 == count / 2 ? .nan : Float($0 % 7) - 3 },
            (0..<count).map { $0 == 0 ? .infinity : Float($0 % 5) },
            (0..<count).map { Float($0 % 9) * 1e-44 },
        ]
        for (n, input) in inputs.enumerated() {
            for asymmetric in [true, false] {
                layer.input = input
                layer.params.asymmetricInputs = asymmetric
                let reference = layer.reference(), optimized = layer.optimized(variant, pool: ThreadPool(threadCount: 1)).output
                #expect(optimized.map(\.bitPattern) == reference.map(\.bitPattern), "\(variant) input \(n) asymmetric \(asymmetric)")
            }
        }
    }

    /// The corpus' hybrid MobileNet's own layers with LiteRT's inputs and outputs: each
    /// variant's kernels reproduce LiteRT's floats exactly, as the reference kernels do
    /// (`HybridInt8Tests`).
    @Test(arguments: hostVariants)
    func matchesLiteRTExactly(variant: InstructionSet) {
        let cases = QuantizedOpFixture.all(in: ["mobilenet_v2_dynamic__chelsea"])
        #expect(cases.count == 3)
        for f in cases {
            let input = f.inputs[0]!, filter = f.inputs[1]!, output = f.outputs[0]
            let layer = Layer(params: HybridConvParams(geometry: f.convolutionGeometry, filterScales: filter.scales.map(Float.init),
                                                       activation: f.fusedActivation.floatRange!, asymmetricInputs: true),
                              depthwise: f.op == "DEPTHWISE_CONV_2D", input: input.floats, inputShape: input.nhwc,
                              filter: filter.values(Int8.self), filterShape: filter.nhwc, bias: f.inputs[2]?.floats,
                              outputShape: output.nhwc)
            #expect(layer.optimized(variant, pool: ThreadPool(threadCount: 2)).output == output.floats, "\(variant) \(f)")
        }
    }
}
