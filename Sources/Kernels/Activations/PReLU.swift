extension Activations {
    /// PRELU: `x >= 0 ? x : alpha * x`, with `alpha` broadcast against the input as planned by
    /// `plan` (lhs = input, rhs = alpha); large outputs are split across `pool`.
    public static func prelu(input: UnsafePointer<Float>, alpha: UnsafePointer<Float>, plan: BroadcastPlan,
                             output: UnsafeMutablePointer<Float>, pool: ThreadPool? = nil) {
        plan.split(pool) { e in
            plan.apply(elements: e, input, alpha, output) { x, a in x >= 0 ? x : a * x }
        }
    }
}
