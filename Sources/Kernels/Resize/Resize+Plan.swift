extension Resize {
    /// Float RESIZE_BILINEAR's kernel: the variant's channel vectors, the reference kernel for
    /// `.referenceOnly` or fewer channels than a vector.
    public static func planBilinear(params: ResizeParams, inputShape: NHWC, outputShape: NHWC,
                                    using choice: KernelChoice) -> PlannedKernel<UnaryOperands<Float>> {
        guard let kernels = choice.optimizedKernels,
              let run = kernels.floatResizeBilinear(params, inputShape, outputShape)
        else {
            return PlannedKernel(name: "resize-bilinear.f32.reference") { o, pool in
                bilinear(params: params, input: o.input, inputShape: inputShape, output: o.output, outputShape: outputShape,
                         threads: pool)
            }
        }
        return PlannedKernel(name: "resize-bilinear.f32.channel-vectors/\(kernels.instructionSet)", run: run)
    }
}
