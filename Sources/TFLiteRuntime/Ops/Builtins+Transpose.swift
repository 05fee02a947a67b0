import Kernels

/// TRANSPOSE, TILE, BROADCAST_TO and REVERSE_V2: permuting, repeating and mirroring axes, with
/// the permutation, multiples, target shape or axes a constant.
extension OpRegistry {
    mutating func registerTransposeOps() {
        let all = OpRegistry.elementMovingTypes
        register(.transpose, types: all, prepareTranspose)
        register(.tile, types: all, prepareTile)
        register(.broadcastTo, types: all, prepareBroadcastTo)
        register(.reverseV2, types: all, prepareReverse)
    }
}

private func prepareTranspose(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let x = try ctx.input(0)
    let perm = try ctx.constantIntegers(input: 1)
    guard perm.count == x.rank, perm.sorted() == Array(0..<x.rank) else {
        throw ctx.invalid("permutation \(perm) is not a permutation of the \(x.rank) axes of shape \(x.shape)")
    }
    try ctx.setOutputShape(0, Transpose.outputShape(inputShape: x.shape, permutation: perm))
    return try ctx.indexMapCopyKernel { Transpose.plan(inputShape: x.shape, permutation: perm, elementSize: $0) }
}

private func prepareTile(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let x = try ctx.input(0)
    let multiples = try ctx.constantIntegers(input: 1)
    guard multiples.count == x.rank, multiples.allSatisfy({ $0 >= 0 }) else {
        throw ctx.invalid("multiples \(multiples) must be one non-negative value per axis of shape \(x.shape)")
    }
    var shape: [Int] = []
    for (d, m) in multiples.enumerated() {
        let (p, o) = x.shape[d].multipliedReportingOverflow(by: m)
        guard !o else { throw ctx.invalid("tiling \(x.shape) by \(multiples) overflows") }
        shape.append(p)
    }
    try ctx.setOutputShape(0, checking: shape, "tiling \(x.shape) by \(multiples) overflows")
    return try ctx.indexMapCopyKernel { Tile.plan(inputShape: x.shape, multiples: multiples, elementSize: $0) }
}

private func prepareBroadcastTo(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let x = try ctx.input(0)
    let target = try ctx.constantIntegers(input: 1)
    guard target.count >= x.rank, target.allSatisfy({ $0 >= 0 }) else {
        throw ctx.invalid("cannot broadcast shape \(x.shape) to \(target)")
    }
    let offset = target.count - x.rank
    for d in 0..<x.rank where x.shape[d] != 1 && x.shape[d] != target[offset + d] {
        throw ctx.invalid("cannot broadcast shape \(x.shape) to \(target): axis \(d) has extent \(x.shape[d])")
    }
    try ctx.setOutputShape(0, checking: target, "target shape \(target) overflows")
    return try ctx.indexMapCopyKernel { Tile.planBroadcast(inputShape: x.shape, outputShape: target, elementSize: $0) }
}

private func prepareReverse(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let x = try ctx.input(0)
    var axes: [Int] = []
    for a in try ctx.constantIntegers(input: 1) {
        let axis = try ctx.normalizedAxis(a, rank: x.rank)
        guard !axes.contains(axis) else { throw ctx.invalid("axis \(a) named twice") }
        axes.append(axis)
    }
    try ctx.setOutputShape(0, x.shape)
    return try ctx.indexMapCopyKernel { Reverse.plan(shape: x.shape, axes: axes, elementSize: $0) }
}
