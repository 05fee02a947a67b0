extension DepthwiseConv2D {
    /// Float DEPTHWISE_CONV_2D's kernel: the variant's channel-vector paths, the reference
    /// kernel for `.referenceOnly`.
    public static func plan(params: DepthwiseConv2DParams, inputShape: NHWC, filterShape: NHWC, outputShape: NHWC,
                            threadCount: Int, using choice: KernelChoice)
        -> PlannedKernel<WeightedOperands<Float, Float, Float>> {
        guard let kernels = choice.optimizedKernels else {
            return PlannedKernel(name: "depthwise.f32.reference") { o, _ in
                reference(params: params, o.shaped(input: inputShape, filter: filterShape, output: outputShape))
            }
        }
        let optimized = kernels.floatDepthwiseConv2D(params, inputShape, filterShape, outputShape, threadCount)
        let scratchFloats = optimized.scratchFloatCount
        return PlannedKernel(name: optimized.name, scratchBytes: 4 * scratchFloats) { o, pool in
            optimized.run(input: o.input, filter: o.filter, bias: o.bias, output: o.output,
                          scratch: scratchFloats > 0 ? o.scratch.assumingMemoryBound(to: Float.self) : nil, pool: pool)
        }
    }
}

extension DepthwiseConv2D.Quantized {
    /// Int8 DEPTHWISE_CONV_2D's kernel: the variant's kernels, which convert constant weights
    /// once with the input offset folded into a constant bias; the reference kernel otherwise.
    public static func plan(_ params: QuantizedConvParams, depthMultiplier: Int, inputShape: NHWC, filter: PlannedOperand<Int8>,
                            filterShape: NHWC, bias: PlannedOperand<Int32>, outputShape: NHWC, threadCount: Int,
                            using choice: KernelChoice) -> PlannedKernel<WeightedOperands<Int8, Int8, Int32>> {
        if let kernels = choice.optimizedKernels, let weights = filter.constant, bias.isKnown,
           let optimized = kernels.int8DepthwiseConv2D(params, depthMultiplier, weights, filterShape, bias.constant, inputShape,
                                                       outputShape, threadCount) {
            return PlannedKernel(optimized)
        }
        return PlannedKernel(name: "depthwise.i8.reference") { o, _ in
            reference(params, depthMultiplier: depthMultiplier, o.shaped(input: inputShape, filter: filterShape, output: outputShape))
        }
    }
}

extension DepthwiseConv2D.Hybrid {
    /// Hybrid DEPTHWISE_CONV_2D's kernel (float activations, int8 weights): the variant's int8
    /// tap-row kernel with a float output stage for constant weights and depth multiplier 1;
    /// the reference kernel otherwise.
    public static func plan(_ params: HybridConvParams, depthMultiplier: Int, inputShape: NHWC, filter: PlannedOperand<Int8>,
                            filterShape: NHWC, outputShape: NHWC, threadCount: Int,
                            using choice: KernelChoice) -> PlannedKernel<WeightedOperands<Float, Int8, Float>> {
        if let kernels = choice.optimizedKernels, let weights = filter.constant,
           let optimized = kernels.hybridDepthwiseConv2D(params, depthMultiplier, weights, filterShape, inputShape, outputShape,
                                                         threadCount) {
            return PlannedKernel(optimized)
        }
        return PlannedKernel(name: "depthwise.f32-i8.reference", scratchBytes: hybridScratchCount(inputShape)) { o, _ in
            reference(params, depthMultiplier: depthMultiplier, o.shaped(input: inputShape, filter: filterShape, output: outputShape),
                      scratch: o.scratch.assumingMemoryBound(to: Int8.self))
        }
    }
}
