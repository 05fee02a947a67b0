import Kernels

/// CUMSUM over float32, int32 and int64.
extension OpRegistry {
    mutating func registerScanOps() {
        register(.cumsum, types: [.float32, .int32, .int64], prepareCumsum)
    }
}

private func prepareCumsum(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    guard x.type == y.type else { throw ctx.invalid("input type \(x.type) differs from output type \(y.type)") }
    let axis = try ctx.resolveAxis(try ctx.constantInteger(input: 1, what: "axis"), rank: x.rank)
    var exclusive = false, reverse = false
    if case .cumsumOptions(let o)? = ctx.options { exclusive = o.exclusive; reverse = o.reverse }
    try ctx.setOutputShape(0, x.shape)
    let outer = Shape.product(x.shape, 0..<axis), size = x.shape[axis], inner = Shape.product(x.shape, axis + 1..<x.rank)
    let xi = x.index, yi = y.index
    func kernel<T: WrappingAddable>(_: T.Type) -> NodeKernel {
        { c in Cumsum.run(input: c.data(xi, as: T.self), output: c.data(yi, as: T.self), outer: outer, axisSize: size,
                          inner: inner, exclusive: exclusive, reverse: reverse) }
    }
    switch x.type {
    case .float32: return kernel(Float.self)
    case .int32: return kernel(Int32.self)
    case .int64: return kernel(Int64.self)
    case let t: throw ctx.unsupported("input type \(t)")
    }
}
