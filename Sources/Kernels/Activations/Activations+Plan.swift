extension Activations {
    /// A float activation's kernel: vectors split across the threads, the scalar reference
    /// for `.referenceOnly`. `family` begins its name (the op's, as the runtime spells it).
    public static func plan(_ function: UnaryFunction, count: Int, family: String,
                            using choice: KernelChoice) -> PlannedKernel<UnaryOperands<Float>> {
        guard choice.optimizedKernels != nil else {
            return PlannedKernel(name: family + ".f32.reference") { o, _ in
                reference(function, input: o.input, output: o.output, count: count)
            }
        }
        return PlannedKernel(name: family + ".f32.vectorized") { o, pool in
            apply(function, input: o.input, output: o.output, count: count, threads: pool)
        }
    }
}
