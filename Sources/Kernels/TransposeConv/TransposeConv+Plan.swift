extension TransposeConv {
    /// Float TRANSPOSE_CONV's kernel (MediaPipe's Convolution2DTransposeBias too): the
    /// variant's GEMM over constant weights regrouped and packed once, the reference kernel
    /// otherwise.
    public static func plan(params: TransposeConvParams, inputShape: NHWC, filter: PlannedOperand<Float>, filterShape: NHWC,
                            outputShape: NHWC, threadCount: Int, using choice: KernelChoice)
        -> PlannedKernel<WeightedOperands<Float, Float, Float>> {
        guard let kernels = choice.optimizedKernels, let weights = filter.constant else {
            return PlannedKernel(name: "transpose-conv.f32.reference") { o, _ in
                reference(params: params, o.shaped(input: inputShape, filter: filterShape, output: outputShape))
            }
        }
        let optimized = kernels.floatTransposeConv(params, inputShape, weights, filterShape, outputShape, threadCount)
        return PlannedKernel(name: optimized.name, scratchBytes: 4 * optimized.scratchFloatCount) { o, pool in
            optimized.run(input: o.input, bias: o.bias, output: o.output, scratch: o.scratch.assumingMemoryBound(to: Float.self),
                          pool: pool)
        }
    }
}
