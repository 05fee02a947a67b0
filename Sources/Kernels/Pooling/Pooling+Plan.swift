extension Pooling.Quantized {
    /// Int8 AVERAGE_POOL_2D's kernel: channel blocks split across the threads, the reference
    /// kernel for `.referenceOnly`.
    public static func planAverage(_ params: QuantizedPoolParams, inputShape: NHWC, outputShape: NHWC,
                                   using choice: KernelChoice) -> PlannedKernel<UnaryOperands<Int8>> {
        guard choice.optimizedKernels != nil else {
            return PlannedKernel(name: "average-pool2d.i8.reference") { o, _ in
                average(params, input: o.input, inputShape: inputShape, output: o.output, outputShape: outputShape)
            }
        }
        return PlannedKernel(name: "average-pool2d.i8.channel-blocks") { o, pool in
            averageOptimized(params, input: o.input, inputShape: inputShape, output: o.output, outputShape: outputShape, pool: pool)
        }
    }
}
