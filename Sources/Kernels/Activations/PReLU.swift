extension Activations {
    /// PRELU: `x >= 0 ? x : alpha * x`, with `alpha` broadcast against the input as planned by
    /// `plan` (lhs = input, rhs = alpha).
    public static func prelu(input: UnsafePointer<Float>, alpha: UnsafePointer<Float>, plan: BroadcastPlan,
                             output: UnsafeMutablePointer<Float>) {
        plan.apply(input, alpha, output) { x, a in x >= 0 ? x : a * x }
    }
}
