import Kernels

/// LSH_PROJECTION over items of any fixed-size type (input 1, `[items, ...]`), seeded by the
/// float `[hashes, bits]` input 0 and optionally weighted per item by input 2.
extension OpRegistry {
    mutating func registerLSHProjectionOps() {
        register(.lshProjection, types: [.float32], outputTypes: .checkedByOp, prepareLSHProjection)
    }
}

private func prepareLSHProjection(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...3, outputs: 1...1)
    guard case .lSHProjectionOptions(let o)? = ctx.options else { throw ctx.invalid("missing LSHProjectionOptions") }
    let hash = try ctx.input(0), x = try ctx.input(1), y = try ctx.output(0)
    try ctx.requireType(input: 0, .float32)
    guard hash.rank == 2, hash.shape[1] <= 31 else {
        throw ctx.invalid("the hash seeds must be [hashes, bits] with at most 31 bits, are \(hash.shape)")
    }
    guard x.rank >= 1, x.shape[0] >= 1 else { throw ctx.invalid("the input must have at least one item, has shape \(x.shape)") }
    let itemBytes = try ctx.elementSize(x, role: "input") * (x.elementCount / x.shape[0])
    let weight = ctx.optionalInput(2)
    if let weight {
        guard weight.type == .float32, weight.shape == [x.shape[0]] else {
            throw ctx.invalid("the weights must be float32 [\(x.shape[0])], are \(weight.type) \(weight.shape)")
        }
    }
    guard y.type == .int32 else { throw ctx.invalid("output type \(y.type) must be int32") }
    let sparse: Bool
    switch o.type {
    case .sparse: sparse = true
    case .dense: sparse = false
    default: throw ctx.invalid("projection type \(o.type) must be SPARSE or DENSE")
    }
    let hashes = hash.shape[0], bits = hash.shape[1], count = x.shape[0]
    try ctx.setOutputShape(0, [sparse ? hashes : hashes * bits])
    let hi = hash.index, xi = x.index, wi = weight?.index, yi = y.index
    return { c in
        LSHProjection.run(hashes: c.data(hi, as: Float.self), hashCount: hashes, bits: bits, items: c.raw(xi), count: count,
                          itemBytes: itemBytes, weights: wi.map { UnsafePointer(c.data($0, as: Float.self)) }, sparse: sparse,
                          output: c.data(yi, as: Int32.self))
    }
}
