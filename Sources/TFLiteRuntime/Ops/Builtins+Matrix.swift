import Kernels

/// MATRIX_DIAG and MATRIX_SET_DIAG over every fixed-size element type, and REVERSE_SEQUENCE.
extension OpRegistry {
    mutating func registerMatrixOps() {
        let all: [DataType] = [.float32, .int8, .uInt8, .int16, .int32, .int64, .bool]
        register(.matrixDiag, types: all, prepareMatrixDiag)
        register(.matrixSetDiag, types: all, prepareMatrixSetDiag)
        register(.reverseSequence, types: all, prepareReverseSequence)
    }
}

private func prepareMatrixDiag(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    guard x.rank >= 1 else { throw ctx.invalid("input must have rank 1 or more, has shape \(x.shape)") }
    guard x.type == y.type, let size = x.type.byteSize else { throw ctx.invalid("input type \(x.type) and output type \(y.type) must match") }
    let n = x.shape[x.rank - 1]
    try ctx.setOutputShape(0, x.shape + [n])
    let batches = Shape.product(x.shape, 0..<x.rank - 1), xi = x.index, yi = y.index
    return { c in MatrixDiag.diag(input: c.raw(xi), batches: batches, n: n, elementSize: size, output: c.raw(yi)) }
}

private func prepareMatrixSetDiag(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let x = try ctx.input(0), d = try ctx.input(1), y = try ctx.output(0)
    guard x.rank >= 2 else { throw ctx.invalid("input must have rank 2 or more, has shape \(x.shape)") }
    let rows = x.shape[x.rank - 2], columns = x.shape[x.rank - 1]
    let expected = Array(x.shape.dropLast(2)) + [min(rows, columns)]
    guard d.shape == expected else { throw ctx.invalid("diagonal shape \(d.shape) must be \(expected) for input \(x.shape)") }
    guard x.type == y.type, d.type == x.type, let size = x.type.byteSize else {
        throw ctx.invalid("input, diagonal and output types (\(x.type), \(d.type), \(y.type)) must match")
    }
    try ctx.setOutputShape(0, x.shape)
    let batches = Shape.product(x.shape, 0..<x.rank - 2), xi = x.index, di = d.index, yi = y.index
    return { c in
        MatrixDiag.setDiag(input: c.raw(xi), diagonal: c.raw(di), batches: batches, rows: rows, columns: columns,
                           elementSize: size, output: c.raw(yi))
    }
}

private func prepareReverseSequence(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let x = try ctx.input(0), lengths = try ctx.input(1), y = try ctx.output(0)
    guard case .reverseSequenceOptions(let o)? = ctx.options else { throw ctx.invalid("missing ReverseSequenceOptions") }
    let seqAxis = try ctx.resolveAxis(Int(o.seqDim), rank: x.rank, what: "seq_dim")
    let batchAxis = try ctx.resolveAxis(Int(o.batchDim), rank: x.rank, what: "batch_dim")
    guard seqAxis != batchAxis else { throw ctx.invalid("seq_dim and batch_dim are both axis \(seqAxis)") }
    guard lengths.rank == 1, lengths.shape[0] == x.shape[batchAxis] else {
        throw ctx.invalid("sequence lengths \(lengths.shape) must be a vector of \(x.shape[batchAxis]) (the batch dimension)")
    }
    guard x.type == y.type, let size = x.type.byteSize else { throw ctx.invalid("input type \(x.type) and output type \(y.type) must match") }
    try ctx.setOutputShape(0, x.shape)
    let shape = x.shape, xi = x.index, li = lengths.index, yi = y.index, fail = ctx.failure
    func kernel<L: FixedWidthInteger>(_: L.Type) -> NodeKernel {
        { c throws(InterpreterError) in
            do throws(KernelError) {
                try ReverseSequence.run(input: c.raw(xi), shape: shape, elementSize: size, lengths: c.data(li, as: L.self),
                                        sequenceAxis: seqAxis, batchAxis: batchAxis, output: c.raw(yi))
            } catch { throw fail(error) }
        }
    }
    switch lengths.type {
    case .int32: return kernel(Int32.self)
    case .int64: return kernel(Int64.self)
    case let t: throw ctx.unsupported("sequence length type \(t)")
    }
}
