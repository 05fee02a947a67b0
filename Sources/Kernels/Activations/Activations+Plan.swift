extension Activations {
    /// Applies `function` to `count` values (`output` may alias `input`) with the baseline
    /// vectors, split across `threads` when there are enough of them: the RELU family,
    /// LEAKY_RELU, HARD_SWISH and LOGISTIC have a vector path, the rest run the reference.
    public static func apply(_ function: UnaryFunction, input: UnsafePointer<Float>,
                             output: UnsafeMutablePointer<Float>, count: Int, threads: ThreadPool? = nil) {
        FloatActivations.apply(function, input: input, output: output, count: count, threads: threads)
    }

    /// A float activation's kernel: the variant's vectors split across the threads, the scalar
    /// reference for `.referenceOnly` and the functions without a vector path. `family` begins
    /// its name (the op's, as the runtime spells it).
    public static func plan(_ function: UnaryFunction, count: Int, family: String,
                            using choice: KernelChoice) -> PlannedKernel<UnaryOperands<Float>> {
        guard let kernels = choice.optimizedKernels, let run = kernels.floatActivation(function, count) else {
            return PlannedKernel(name: family + ".f32.reference") { o, _ in
                reference(function, input: o.input, output: o.output, count: count)
            }
        }
        return PlannedKernel(name: "\(family).f32.vectorized/\(kernels.instructionSet)", run: run)
    }
}
