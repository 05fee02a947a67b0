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
    let axisInput = try RunTimeInteger(ctx, input: 1, what: "axis")
    let staticAxis = try ctx.input(1).isConstant ? try ctx.resolveAxis(try ctx.constantInteger(input: 1, what: "axis"), rank: x.rank) : nil
    var exclusive = false, reverse = false
    if case .cumsumOptions(let o)? = ctx.options { exclusive = o.exclusive; reverse = o.reverse }
    try ctx.setOutputShape(0, x.shape)
    let shape = x.shape, xi = x.index, yi = y.index, fail = ctx.failure
    func kernel<T: WrappingAddable>(_: T.Type) -> NodeKernel {
        { c throws(InterpreterError) in
            // A computed axis only changes how the input is viewed, not the output shape.
            var axis = staticAxis ?? 0
            if staticAxis == nil {
                let a = axisInput.read(c)
                axis = a < 0 ? a + shape.count : a
                guard axis >= 0, axis < shape.count else { throw fail("axis \(a) is out of range for rank \(shape.count)") }
            }
            Cumsum.run(input: c.data(xi, as: T.self), output: c.data(yi, as: T.self), outer: Shape.product(shape, 0..<axis),
                       axisSize: shape[axis], inner: Shape.product(shape, axis + 1..<shape.count), exclusive: exclusive, reverse: reverse)
        }
    }
    switch x.type {
    case .float32: return kernel(Float.self)
    case .int32: return kernel(Int32.self)
    case .int64: return kernel(Int64.self)
    case let t: throw ctx.unsupported("input type \(t)")
    }
}
