extension Conv2D {
    /// Float CONV_2D's kernel: the variant's packed paths for constant weights of a convolution
    /// that is not grouped, the reference kernel otherwise.
    public static func plan(params: Conv2DParams, inputShape: NHWC, filter: PlannedOperand<Float>, filterShape: NHWC,
                            outputShape: NHWC, threadCount: Int, using choice: KernelChoice)
        -> PlannedKernel<WeightedOperands<Float, Float, Float>> {
        if let kernels = choice.optimizedKernels, let weights = filter.constant,
           let optimized = kernels.floatConv2D(params, inputShape, weights, filterShape, outputShape, threadCount) {
            return PlannedKernel(name: optimized.name, scratchBytes: 4 * optimized.scratchFloatCount, packedItsWeights: true) { o, pool in
                optimized.run(input: o.input, bias: o.bias, residual: o.residual, output: o.output,
                              scratch: o.scratch.assumingMemoryBound(to: Float.self), pool: pool)
            }
        }
        // With a folded residual the reference kernel runs without activation, then the ADD
        // (of zeros past the residual's columns) and the activation follow.
        let linear = Conv2DParams(geometry: params.geometry, activation: ActivationRange(min: -.infinity, max: .infinity))
        return PlannedKernel(name: "conv2d.f32.reference") { o, _ in
            guard let residual = o.residual else {
                reference(params: params, o.shaped(input: inputShape, filter: filterShape, output: outputShape))
                return
            }
            reference(params: linear, o.shaped(input: inputShape, filter: filterShape, output: outputShape))
            let n = outputShape.channels
            for pixel in 0..<(outputShape.elementCount / Swift.max(1, n)) {
                for k in 0..<n {
                    let add = k < residual.columns ? residual.base[pixel * residual.rowStride + k] : 0
                    o.output[pixel * n + k] = params.activation.clamp(o.output[pixel * n + k] + add)
                }
            }
        }
    }
}

extension Conv2D.Quantized {
    /// Int8 CONV_2D's kernel: the variant's kernels, which repack constant symmetric weights
    /// once with the input offset folded into a constant bias, for a convolution that is not
    /// grouped; the reference kernel otherwise.
    public static func plan(_ params: QuantizedConvParams, inputShape: NHWC, filter: PlannedOperand<Int8>, filterShape: NHWC,
                            bias: PlannedOperand<Int32>, outputShape: NHWC, threadCount: Int,
                            using choice: KernelChoice) -> PlannedKernel<WeightedOperands<Int8, Int8, Int32>> {
        if let kernels = choice.optimizedKernels, params.filterOffset == 0, inputShape.channels == filterShape.channels,
           let weights = filter.constant, bias.isKnown,
           let optimized = kernels.int8Conv2D(params, weights, filterShape, bias.constant, inputShape, outputShape, threadCount) {
            return PlannedKernel(optimized)
        }
        return PlannedKernel(name: "conv2d.i8.reference") { o, _ in
            reference(params, o.shaped(input: inputShape, filter: filterShape, output: outputShape))
        }
    }
}

extension Conv2D.Hybrid {
    /// Hybrid CONV_2D's kernel (float activations, int8 weights): the variant's int8 kernels
    /// with a float output stage, which pack constant weights once, for a convolution that is
    /// not grouped; the reference kernel otherwise.
    public static func plan(_ params: HybridConvParams, inputShape: NHWC, filter: PlannedOperand<Int8>, filterShape: NHWC,
                            outputShape: NHWC, threadCount: Int,
                            using choice: KernelChoice) -> PlannedKernel<WeightedOperands<Float, Int8, Float>> {
        if let kernels = choice.optimizedKernels, inputShape.channels == filterShape.channels, let weights = filter.constant {
            return PlannedKernel(kernels.hybridConv2D(params, weights, filterShape, inputShape, outputShape, threadCount))
        }
        return PlannedKernel(name: "conv2d.f32-i8.reference", scratchBytes: hybridScratchCount(inputShape)) { o, _ in
            reference(params, o.shaped(input: inputShape, filter: filterShape, output: outputShape),
                      scratch: o.scratch.assumingMemoryBound(to: Int8.self))
        }
    }
}
