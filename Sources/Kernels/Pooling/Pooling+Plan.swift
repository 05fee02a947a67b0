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

/// The window reductions of the float pools that have an optimised kernel.
public enum PoolingReduction: Sendable {
    case average, max
}

extension Pooling {
    /// Float AVERAGE_POOL_2D's or MAX_POOL_2D's kernel: the variant's channel vectors, the
    /// reference kernel for `.referenceOnly` or fewer channels than a vector.
    public static func plan(_ reduction: PoolingReduction, params: PoolParams, inputShape: NHWC, outputShape: NHWC,
                            using choice: KernelChoice) -> PlannedKernel<UnaryOperands<Float>> {
        let family = reduction == .max ? "max-pool2d" : "average-pool2d"
        guard let kernels = choice.optimizedKernels,
              let run = kernels.floatPool(reduction, params, inputShape, outputShape)
        else {
            return PlannedKernel(name: family + ".f32.reference") { o, pool in
                switch reduction {
                case .max: max(params: params, input: o.input, inputShape: inputShape, output: o.output, outputShape: outputShape, threads: pool)
                case .average: average(params: params, input: o.input, inputShape: inputShape, output: o.output, outputShape: outputShape, threads: pool)
                }
            }
        }
        return PlannedKernel(name: "\(family).f32.channel-vectors/\(kernels.instructionSet)", run: run)
    }
}
