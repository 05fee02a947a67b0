import Kernels

/// TOPK_V2 over float32, int8, uint8, int16, int32 and int64, with int32 or int64 indices.
extension OpRegistry {
    mutating func registerTopKOps() {
        register(.topkV2, types: [.float32, .int8, .uInt8, .int16, .int32, .int64], outputTypes: .firstSameAs(input: 0), prepareTopK)
    }
}

private func prepareTopK(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 2...2)
    let x = try ctx.input(0), values = try ctx.output(0), indices = try ctx.output(1)
    guard x.rank >= 1 else { throw ctx.invalid("input must have rank 1 or more, has shape \(x.shape)") }
    let length = x.shape[x.rank - 1], kInput = try RunTimeInteger(ctx, input: 1, what: "k")
    func shape(_ k: Int) -> [Int] { Array(x.shape.dropLast()) + [k] }
    var staticK: Int?
    if try ctx.input(1).isConstant {
        let k = try ctx.constantInteger(input: 1, what: "k")
        guard k >= 0, k <= length else { throw ctx.invalid("k = \(k) is outside 0...\(length) (the last dimension of \(x.shape))") }
        try ctx.setOutputShape(0, shape(k))
        try ctx.setOutputShape(1, shape(k))
        staticK = k
    } else {
        // The output length is known only once k is computed.
        try ctx.setOutputDynamic(0)
        try ctx.setOutputDynamic(1)
    }
    let kernel = TopKKernel(staticK: staticK, kInput: kInput, rows: Shape.product(x.shape, 0..<x.rank - 1), length: length,
                            leading: Array(x.shape.dropLast()), xi: x.index, vi: values.index, ii: indices.index, fail: ctx.failure)
    let wide = indices.type == .int64
    guard let run = valueIndexKernel(kernel, value: x.type, wideIndex: wide, int16: true) else { throw ctx.unsupported("input type \(x.type)") }
    guard wide || indices.type == .int32 else { throw ctx.unsupported("index output type \(indices.type)") }
    return run
}

/// TOPK_V2's kernel; with k computed at run time it checks k and sizes the outputs first.
private struct TopKKernel: ValueIndexKernelMaker {
    let staticK: Int?, kInput: RunTimeInteger, rows: Int, length: Int, leading: [Int]
    let xi: Int, vi: Int, ii: Int, fail: NodeFailure

    func make<T: WrappingAddable & Comparable, I: FixedWidthInteger>(_: T.Type, _: I.Type) -> NodeKernel {
        { c throws(InterpreterError) in
            var k = staticK ?? 0, v = c.raw(vi), i = c.raw(ii)
            if staticK == nil {
                k = kInput.read(c)
                guard k >= 0, k <= length else { throw fail("k = \(k) is outside 0...\(length) (the last dimension of the input)") }
                v = try c.resize(vi, to: leading + [k])
                i = try c.resize(ii, to: leading + [k])
            }
            TopK.run(input: c.data(xi, as: T.self), rows: rows, rowLength: length, k: k,
                     values: v.assumingMemoryBound(to: T.self), indices: i.assumingMemoryBound(to: I.self))
        }
    }
}
