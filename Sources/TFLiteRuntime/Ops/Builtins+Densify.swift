import Kernels

/// DENSIFY: expands a sparse constant (weights stored in TFLite's sparse format) into a dense
/// tensor. Its input is a constant, so the node is evaluated once, when tensors are allocated.
extension OpRegistry {
    mutating func registerDensifyOps() {
        register(.densify, types: [.float32, .float16, .int8], prepareDensify)
    }
}

private func prepareDensify(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    guard x.isConstant, let sparsity = try ctx.sparsity(ofTensor: x.index) else {
        throw ctx.invalid("input must be a constant tensor with sparsity metadata")
    }
    let size = try ctx.elementSize(x, role: "input")
    let stored = ctx.executor.model.constantData(subgraph: ctx.executor.subgraphIndex, tensor: x.index)?.count ?? 0
    guard stored % size == 0 else { throw ctx.invalid("the \(stored) stored bytes are not a whole number of \(x.type) values") }
    try ctx.setOutputShape(0, checking: x.shape, "dense shape \(x.shape) overflows")
    let xi = x.index, yi = y.index, count = stored / size, shape = x.shape, node = ctx.nodeIndex
    return { (c) throws(InterpreterError) in
        do throws(KernelError) {
            try Densify.apply(values: c.raw(xi), valueCount: count, elementSize: size, denseShape: shape, sparsity: sparsity, output: c.raw(yi))
        } catch { throw invokeError(error, node: node, op: "DENSIFY") }
    }
}
