extension Elementwise {
    /// A float binary operator's kernel: the variant's vectors for ADD, SUB, MUL and DIV over
    /// any layout but the strided one, the reference kernel otherwise and for `.referenceOnly`.
    /// `family` begins its name (the op's, as the runtime spells it).
    public static func plan(_ op: BinaryOperator, plan: BroadcastPlan, activation: ActivationRange<Float>, family: String,
                            using choice: KernelChoice) -> PlannedKernel<BinaryOperands<Float>> {
        guard let kernels = choice.optimizedKernels, let run = kernels.floatArithmetic(op, plan, activation) else {
            return PlannedKernel(name: family + ".f32.reference") { o, pool in
                binary(op, lhs: o.a, rhs: o.b, plan: plan, activation: activation, output: o.output, pool: pool)
            }
        }
        return PlannedKernel(name: "\(family).f32.vectors/\(kernels.instructionSet)", run: run)
    }
}
