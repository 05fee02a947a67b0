extension Activations {
    /// PRELU: `x >= 0 ? x : alpha * x`, with `alpha` broadcast against the input as planned by
    /// `plan` (lhs = input, rhs = alpha); large outputs are split across `pool`.
    public static func prelu(input: UnsafePointer<Float>, alpha: UnsafePointer<Float>, plan: BroadcastPlan,
                             output: UnsafeMutablePointer<Float>, pool: ThreadPool? = nil) {
        plan.split(pool) { e in
            plan.apply(elements: e, input, alpha, output) { x, a in x >= 0 ? x : a * x }
        }
    }

    /// Float PRELU's kernel: the variant's vectors for every layout but the strided one, the
    /// reference kernel otherwise and for `.referenceOnly`.
    public static func planPrelu(_ plan: BroadcastPlan, using choice: KernelChoice) -> PlannedKernel<BinaryOperands<Float>> {
        guard let kernels = choice.optimizedKernels, let run = kernels.floatPrelu(plan) else {
            return PlannedKernel(name: "prelu.f32.reference") { o, pool in
                prelu(input: o.a, alpha: o.b, plan: plan, output: o.output, pool: pool)
            }
        }
        return PlannedKernel(name: "prelu.f32.vectors/\(kernels.instructionSet)", run: run)
    }
}
