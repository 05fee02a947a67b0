extension Reduce {
    /// Float SUM's or MEAN's vector kernel, where the variant has one and the reduced axes
    /// (ignoring axes of extent 1) are adjacent with a kept axis after them; nil otherwise, for
    /// the reference `apply`.
    public static func planSumOrMean(_ op: ReduceOperator, plan: ReducePlan,
                                     using choice: KernelChoice) -> PlannedKernel<UnaryOperands<Float>>? {
        guard op == .sum || op == .mean, let kernels = choice.optimizedKernels,
              let (outer, rows, inner) = adjacentReduction(inputShape: plan.inputShape,
                                                           reduced: plan.inputShape.indices.map(plan.axes.contains)),
              rows > 0
        else { return nil }
        let run = kernels.floatSumOrMean(op == .mean, outer, rows, inner)
        return PlannedKernel(name: "\(op == .mean ? "mean" : "sum").f32.column-sums/\(kernels.instructionSet)", run: run)
    }

    /// The input as `[outer, rows, inner]`, the reduced axes' extents multiplied into `rows`,
    /// when those axes are adjacent and some kept extent follows them (`inner > 1`); nil
    /// otherwise. Axes of extent 1 count as neither.
    static func adjacentReduction(inputShape: [Int], reduced: [Bool]) -> (outer: Int, rows: Int, inner: Int)? {
        var outer = 1, rows = 1, inner = 1
        // 0: before the reduced axes, 1: among them, 2: after them.
        var phase = 0
        for (extent, isReduced) in zip(inputShape, reduced) where extent != 1 {
            switch (phase, isReduced) {
            case (0, false): outer *= extent
            case (0, true), (1, true): phase = 1; rows *= extent
            case (1, false), (2, false): phase = 2; inner *= extent
            default: return nil
            }
        }
        return phase == 2 && inner > 1 ? (outer, rows, inner) : nil
    }
}

extension Reduce.Quantized {
    /// Int8 MEAN's vector kernel, where the variant has one and the reduced axes (ignoring
    /// axes of extent 1) are adjacent with a kept axis after them; nil otherwise, for the
    /// reference `meanOrSum`.
    public static func planMean(_ params: QuantizedMeanSumParams, inputShape: [Int], reduced: [Bool],
                                using choice: KernelChoice) -> PlannedKernel<UnaryOperands<Int8>>? {
        guard let kernels = choice.optimizedKernels,
              let (outer, rows, inner) = Reduce.adjacentReduction(inputShape: inputShape, reduced: reduced),
              let run = kernels.int8Mean(params, outer, rows, inner)
        else { return nil }
        return PlannedKernel(name: "mean.i8.column-sums/\(kernels.instructionSet)", run: run)
    }
}
