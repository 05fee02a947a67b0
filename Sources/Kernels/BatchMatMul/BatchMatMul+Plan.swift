extension BatchMatMul {
    /// The data a float BATCH_MATMUL reads and writes.
    public struct Operands {
        public var lhs: UnsafePointer<Float>
        public var rhs: UnsafePointer<Float>
        public var output: UnsafeMutablePointer<Float>

        public init(lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
            self.lhs = lhs
            self.rhs = rhs
            self.output = output
        }
    }

    /// Float BATCH_MATMUL's kernel: row updates over a right-hand side that is not adjoint,
    /// the reference kernel otherwise.
    public static func plan(lhsShape: [Int], adjointLHS: Bool, rhsShape: [Int], adjointRHS: Bool, outputShape: [Int],
                            using choice: KernelChoice) -> PlannedKernel<Operands> {
        guard choice.optimizedKernels != nil, !adjointRHS else {
            return PlannedKernel(name: "batch-matmul.f32.reference") { o, _ in
                reference(lhs: o.lhs, lhsShape: lhsShape, adjointLHS: adjointLHS, rhs: o.rhs, rhsShape: rhsShape,
                          adjointRHS: adjointRHS, output: o.output, outputShape: outputShape)
            }
        }
        return PlannedKernel(name: "batch-matmul.f32.row-updates") { o, _ in
            rowUpdates(lhs: o.lhs, lhsShape: lhsShape, adjointLHS: adjointLHS, rhs: o.rhs, rhsShape: rhsShape,
                       output: o.output, outputShape: outputShape)
        }
    }
}
