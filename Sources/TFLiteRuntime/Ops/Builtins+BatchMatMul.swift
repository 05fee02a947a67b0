import Kernels

/// BATCH_MATMUL: matrix products over broadcast batch dimensions, optionally transposing
/// either operand.
func prepareBatchMatMul(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let o: Schema.BatchMatMulOptions
    if case .batchMatMulOptions(let opts)? = ctx.options { o = opts } else { o = Schema.BatchMatMulOptions() }
    let lhs = try ctx.input(0), rhs = try ctx.input(1)
    guard lhs.rank >= 2, rhs.rank >= 2, lhs.rank <= 6, rhs.rank <= 6,
          let outShape = BatchMatMul.outputShape(lhsShape: lhs.shape, rhsShape: rhs.shape, adjointLHS: o.adjX, adjointRHS: o.adjY)
    else { throw ctx.invalid("cannot multiply \(lhs.shape) by \(rhs.shape) (adj_x \(o.adjX), adj_y \(o.adjY))") }
    try ctx.setOutputShape(0, outShape)
    switch lhs.type {
    case .float32: break
    case .int8, .int16:
        return try prepareBatchMatMulQuantized(&ctx, options: o, outputShape: outShape)
    case let t: throw ctx.unsupported("input type \(t)")
    }
    if rhs.type == .int8 {
        throw ctx.unsupported("hybrid BATCH_MATMUL (float input, int8 weights)")
    }
    try ctx.requireType(input: 1, .float32)
    let a = lhs.index, b = rhs.index, y = try ctx.output(0).index
    let lShape = lhs.shape, rShape = rhs.shape
    if !o.adjY && !ctx.executor.useReferenceKernels {
        ctx.kernelName = "batch-matmul.f32.row-updates"
        return { c in
            BatchMatMul.rowUpdates(lhs: c.data(a, as: Float.self), lhsShape: lShape, adjointLHS: o.adjX,
                                   rhs: c.data(b, as: Float.self), rhsShape: rShape,
                                   output: c.data(y, as: Float.self), outputShape: outShape)
        }
    }
    return { c in
        BatchMatMul.reference(lhs: c.data(a, as: Float.self), lhsShape: lShape, adjointLHS: o.adjX,
                              rhs: c.data(b, as: Float.self), rhsShape: rShape, adjointRHS: o.adjY,
                              output: c.data(y, as: Float.self), outputShape: outShape)
    }
}
