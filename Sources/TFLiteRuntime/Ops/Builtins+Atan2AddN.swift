import Kernels

/// ATAN2 (float32, broadcasting) and ADD_N (float32, int32, int64).
extension OpRegistry {
    mutating func registerAtan2AddNOps() {
        register(.atan2, types: [.float32], prepareAtan2)
        register(.addN, types: [.float32, .int32, .int64], prepareAddN)
    }
}

private func prepareAtan2(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let a = try ctx.input(0), b = try ctx.input(1), y = try ctx.output(0)
    guard a.type == .float32, b.type == .float32, y.type == .float32 else {
        throw ctx.unsupported("types \(a.type), \(b.type) -> \(y.type); only float32")
    }
    guard a.rank <= 6, b.rank <= 6, let plan = BroadcastPlan(lhsShape: a.shape, rhsShape: b.shape) else {
        throw ctx.invalid("shapes \(a.shape) and \(b.shape) do not broadcast (rank at most 6)")
    }
    try ctx.setOutputShape(0, plan.outputShape)
    let ai = a.index, bi = b.index, yi = y.index
    return { c in Atan2.run(y: c.data(ai, as: Float.self), x: c.data(bi, as: Float.self), plan: plan, output: c.data(yi, as: Float.self)) }
}

private func prepareAddN(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    guard ctx.inputCount >= 1, ctx.outputCount == 1 else { throw ctx.invalid("expects 1 or more inputs and 1 output") }
    let first = try ctx.input(0), y = try ctx.output(0)
    var indices: [Int] = []
    for i in 0..<ctx.inputCount {
        let t = try ctx.input(i)
        guard t.shape == first.shape, t.type == first.type else {
            throw ctx.invalid("input \(i) is \(t.type) \(t.shape); every input must be \(first.type) \(first.shape)")
        }
        indices.append(t.index)
    }
    try ctx.setOutputShape(0, first.shape)
    let n = first.elementCount, yi = y.index
    func kernel<T: WrappingAddable>(_: T.Type) -> NodeKernel {
        { c in AddN.run(inputs: indices.map { UnsafePointer(c.data($0, as: T.self)) }, count: n, output: c.data(yi, as: T.self)) }
    }
    switch first.type {
    case .float32: return kernel(Float.self)
    case .int32: return kernel(Int32.self)
    case .int64: return kernel(Int64.self)
    case let t: throw ctx.unsupported("input type \(t)")
    }
}
