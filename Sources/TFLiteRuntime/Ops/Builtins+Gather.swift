import Kernels

/// GATHER and GATHER_ND. The indices are data: their shapes are checked here, their values by
/// the kernel at run time, where a bad index fails the invocation.
extension OpRegistry {
    mutating func registerGatherOps() {
        let all = OpRegistry.elementMovingTypes
        register(.gather, types: all + [.int4], prepareGather)
        register(.gatherNd, types: all, prepareGatherND)
    }
}

private func prepareGather(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let x = try ctx.input(0), indices = try ctx.input(1)
    guard indices.type == .int32 || indices.type == .int64 else { throw ctx.invalid("indices must be int32 or int64, are \(indices.type)") }
    var axisValue = 0, batchValue = 0
    if case .gatherOptions(let o)? = ctx.options { axisValue = Int(o.axis); batchValue = Int(o.batchDims) }
    let axis = try ctx.normalizedAxis(axisValue, rank: x.rank)
    let batchDims = batchValue < 0 ? batchValue + indices.rank : batchValue
    guard batchDims >= 0, batchDims <= indices.rank, batchDims <= axis else {
        throw ctx.invalid("batch_dims \(batchValue) must lie in 0...\(min(indices.rank, axis)) for indices of rank \(indices.rank) and axis \(axis)")
    }
    guard Array(x.shape[..<batchDims]) == Array(indices.shape[..<batchDims]) else {
        throw ctx.invalid("the first \(batchDims) extents of params \(x.shape) and indices \(indices.shape) must match")
    }
    try ctx.setOutputShape(0, Gather.outputShape(inputShape: x.shape, indicesShape: indices.shape, axis: axis, batchDims: batchDims))
    var inputShape = x.shape, size = 0
    if x.type == .int4 {
        // LiteRT gathers packed int4 values as whole bytes, the values after the axis two to a
        // byte (reference/gather.h halves their count and leaves odd counts unhandled): the
        // params are gathered as bytes of [..., axis extent, count / 2].
        guard try ctx.output(0).type == .int4 else { throw ctx.invalid("output type must be INT4, as the params are") }
        let after = x.shape[(axis + 1)...].reduce(1, *)
        guard after % 2 == 0 else {
            throw ctx.unsupported("INT4 params with \(after) values after axis \(axis): LiteRT gathers int4 values in whole bytes, so their count must be even")
        }
        inputShape = Array(x.shape[...axis]) + [after / 2]
        size = 1
    } else {
        size = try ctx.elementSize(x, role: "params")
    }
    let xi = x.index, ii = indices.index, yi = try ctx.output(0).index, node = ctx.nodeIndex
    let indicesShape = indices.shape
    if indices.type == .int64 {
        return { (c) throws(InterpreterError) in
            do throws(KernelError) {
                try Gather.apply(input: c.raw(xi), inputShape: inputShape, indices: c.data(ii, as: Int64.self), indicesShape: indicesShape,
                                 axis: axis, batchDims: batchDims, elementSize: size, output: c.raw(yi))
            } catch { throw invokeError(error, node: node, op: "GATHER") }
        }
    }
    return { (c) throws(InterpreterError) in
        do throws(KernelError) {
            try Gather.apply(input: c.raw(xi), inputShape: inputShape, indices: c.data(ii, as: Int32.self), indicesShape: indicesShape,
                             axis: axis, batchDims: batchDims, elementSize: size, output: c.raw(yi))
        } catch { throw invokeError(error, node: node, op: "GATHER") }
    }
}

private func prepareGatherND(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let params = try ctx.input(0), indices = try ctx.input(1)
    guard indices.type == .int32 || indices.type == .int64 else { throw ctx.invalid("indices must be int32 or int64, are \(indices.type)") }
    guard params.rank >= 1, indices.rank >= 1 else { throw ctx.invalid("params \(params.shape) and indices \(indices.shape) must have rank at least 1") }
    let depth = indices.shape[indices.rank - 1]
    guard depth <= params.rank else {
        throw ctx.invalid("index depth \(depth) (last extent of indices \(indices.shape)) exceeds the rank of params \(params.shape)")
    }
    try ctx.setOutputShape(0, Gather.ndOutputShape(paramsShape: params.shape, indicesShape: indices.shape))
    let size = try ctx.elementSize(params, role: "params")
    let pi = params.index, ii = indices.index, yi = try ctx.output(0).index, node = ctx.nodeIndex
    let paramsShape = params.shape, indicesShape = indices.shape
    if indices.type == .int64 {
        return { (c) throws(InterpreterError) in
            do throws(KernelError) {
                try Gather.nd(params: c.raw(pi), paramsShape: paramsShape, indices: c.data(ii, as: Int64.self),
                              indicesShape: indicesShape, elementSize: size, output: c.raw(yi))
            } catch { throw invokeError(error, node: node, op: "GATHER_ND") }
        }
    }
    return { (c) throws(InterpreterError) in
        do throws(KernelError) {
            try Gather.nd(params: c.raw(pi), paramsShape: paramsShape, indices: c.data(ii, as: Int32.self),
                          indicesShape: indicesShape, elementSize: size, output: c.raw(yi))
        } catch { throw invokeError(error, node: node, op: "GATHER_ND") }
    }
}
