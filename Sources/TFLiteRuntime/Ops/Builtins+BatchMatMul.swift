import Kernels

/// BATCH_MATMUL: matrix products over broadcast batch dimensions, optionally transposing
/// either operand.
extension OpRegistry {
    mutating func registerBatchMatMulOps() {
        register(.batchMatmul, types: [.float32, .int8], prepareBatchMatMul)
    }
}

private func prepareBatchMatMul(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let o: Schema.BatchMatMulOptions
    if case .batchMatMulOptions(let opts)? = ctx.options { o = opts } else { o = Schema.BatchMatMulOptions() }
    let lhs = try ctx.input(0), rhs = try ctx.input(1)
    guard lhs.rank >= 2, rhs.rank >= 2, lhs.rank <= 6, rhs.rank <= 6,
          let outShape = BatchMatMul.outputShape(lhsShape: lhs.shape, rhsShape: rhs.shape, adjointLHS: o.adjX, adjointRHS: o.adjY)
    else { throw ctx.invalid("cannot multiply \(lhs.shape) by \(rhs.shape) (adj_x \(o.adjX), adj_y \(o.adjY))") }
    try ctx.setOutputShape(0, outShape)
    ctx.flops = checkedProduct([2] + outShape + [lhs.shape[lhs.rank - (o.adjX ? 2 : 1)]])
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
    let kernel = BatchMatMul.plan(lhsShape: lShape, adjointLHS: o.adjX, rhsShape: rShape, adjointRHS: o.adjY,
                                  outputShape: outShape, using: ctx.kernelChoice)
    ctx.adopt(kernel)
    return { c in
        kernel.run(BinaryOperands(a: c.data(a, as: Float.self), b: c.data(b, as: Float.self), output: c.data(y, as: Float.self)), c.threads)
    }
}

private func prepareBatchMatMulQuantized(_ ctx: inout PrepareContext, options o: Schema.BatchMatMulOptions,
                                         outputShape: [Int]) throws(InterpreterError) -> NodeKernel {
    let lhs = try ctx.input(0), rhs = try ctx.input(1), y = try ctx.output(0)
    guard lhs.type == .int8 else { throw ctx.unsupported("quantised BATCH_MATMUL on \(lhs.type)") }
    try ctx.requireSameType(.int8, inputs: [0, 1])
    let lq = try ctx.affine(lhs, role: "lhs"), rq = try ctx.affine(rhs, role: "rhs"), outQ = try ctx.affine(y, role: "output")
    guard let params = QuantizedFullyConnectedParams.make(input: lq, filterScales: [rq.scale], filterZeroPoint: rq.zeroPoint,
                                                          output: outQ, activation: .none, qmin: -128, qmax: 127,
                                                          // LiteRT's BATCH_MATMUL rescales with double rounding.
                                                          rounding: .double)
    else { throw ctx.invalid("cannot derive the output rescaling") }
    // The kernel walks each operand's matrices with one batch stride, so broadcasting is
    // limited to an operand whose batch extents are all 1 (or all equal to the output's).
    let rank = outputShape.count
    let lShape = Shape.extended(lhs.shape, toRank: rank), rShape = Shape.extended(rhs.shape, toRank: rank)
    let batchAxes = 0..<(rank - 2)
    let batches = batchAxes.reduce(1) { $0 * outputShape[$1] }
    let lBatches = batchAxes.reduce(1) { $0 * lShape[$1] }, rBatches = batchAxes.reduce(1) { $0 * rShape[$1] }
    guard lBatches == batches || lBatches == 1, rBatches == batches || rBatches == 1,
          batchAxes.allSatisfy({ lShape[$0] == outputShape[$0] || lBatches == 1 }),
          batchAxes.allSatisfy({ rShape[$0] == outputShape[$0] || rBatches == 1 }) else {
        throw ctx.unsupported("int8 BATCH_MATMUL broadcasting \(lhs.shape) against \(rhs.shape)")
    }
    guard !o.adjX else { throw ctx.unsupported("int8 BATCH_MATMUL with adj_x") }
    let rows = lShape[rank - 2], depth = lShape[rank - 1], columns = outputShape[rank - 1]
    // rhs is depth x columns, or columns x depth when adj_y is set.
    let rowStride = o.adjY ? 1 : columns, columnStride = o.adjY ? depth : 1
    let lStride = lBatches == 1 ? 0 : rows * depth, rStride = rBatches == 1 ? 0 : depth * columns
    let li = lhs.index, ri = rhs.index, yi = y.index
    return { c in
        BatchMatMul.Quantized.reference(params, lhs: c.data(li, as: Int8.self), lhsBatchStride: lStride,
                                        rhs: c.data(ri, as: Int8.self), rhsBatchStride: rStride, rhsRowStride: rowStride, rhsColumnStride: columnStride,
                                        batches: batches, rows: rows, depth: depth, columns: columns, output: c.data(yi, as: Int8.self))
    }
}
