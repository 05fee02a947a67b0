extension BatchMatMul {
    /// Float BATCH_MATMUL's kernel: row updates over a right-hand side that is not adjoint,
    /// the reference kernel otherwise.
    public static func plan(lhsShape: [Int], adjointLHS: Bool, rhsShape: [Int], adjointRHS: Bool, outputShape: [Int],
                            using choice: KernelChoice) -> PlannedKernel<BinaryOperands<Float>> {
        guard choice.optimizedKernels != nil, !adjointRHS else {
            return PlannedKernel(name: "batch-matmul.f32.reference") { o, _ in
                reference(lhs: o.a, lhsShape: lhsShape, adjointLHS: adjointLHS, rhs: o.b, rhsShape: rhsShape,
                          adjointRHS: adjointRHS, output: o.output, outputShape: outputShape)
            }
        }
        return PlannedKernel(name: "batch-matmul.f32.row-updates") { o, _ in
            rowUpdates(lhs: o.a, lhsShape: lhsShape, adjointLHS: adjointLHS, rhs: o.b, rhsShape: rhsShape,
                       output: o.output, outputShape: outputShape)
        }
    }
}
