import Kernels

/// SCATTER_ND over float32, int8, uint8, int32 and int64 updates with int32 or int64 indices.
extension OpRegistry {
    mutating func registerScatterOps() {
        register(.scatterNd, types: [.int32, .int64], prepareScatterND)
    }
}

private func prepareScatterND(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 1...1)
    let indices = try ctx.input(0), updates = try ctx.input(1), y = try ctx.output(0)
    let shape = try ctx.constantIntegers(input: 2)
    guard shape.allSatisfy({ $0 >= 0 }) else { throw ctx.invalid("output shape \(shape) has a negative dimension") }
    guard indices.rank >= 1 else { throw ctx.invalid("indices must have rank 1 or more, have shape \(indices.shape)") }
    let depth = indices.shape[indices.rank - 1]
    guard depth >= 1, depth <= shape.count else {
        throw ctx.invalid("index depth \(depth) must be in 1...\(shape.count) (the output rank)")
    }
    let expected = Array(indices.shape.dropLast()) + shape.dropFirst(depth)
    guard updates.shape == expected else {
        throw ctx.invalid("updates have shape \(updates.shape); indices \(indices.shape) into shape \(shape) need \(expected)")
    }
    guard y.type == updates.type else { throw ctx.invalid("output type \(y.type) differs from updates type \(updates.type)") }
    try ctx.setOutputShape(0, shape)
    let count = Shape.product(indices.shape, 0..<indices.rank - 1)
    let ii = indices.index, ui = updates.index, yi = y.index, fail = ctx.failure
    func kernel<T: WrappingAddable, I: FixedWidthInteger>(_: T.Type, _: I.Type) -> NodeKernel {
        { c throws(InterpreterError) in
            do throws(KernelError) {
                try ScatterND.run(indices: c.data(ii, as: I.self), indexCount: count, indexDepth: depth,
                                  updates: c.data(ui, as: T.self), outputShape: shape, output: c.data(yi, as: T.self))
            } catch { throw fail(error) }
        }
    }
    func byValue<I: FixedWidthInteger>(_: I.Type) throws(InterpreterError) -> NodeKernel {
        switch updates.type {
        case .float32: return kernel(Float.self, I.self)
        case .int8: return kernel(Int8.self, I.self)
        case .uint8: return kernel(UInt8.self, I.self)
        case .int32: return kernel(Int32.self, I.self)
        case .int64: return kernel(Int64.self, I.self)
        case let t: throw ctx.unsupported("updates type \(t)")
        }
    }
    switch indices.type {
    case .int32: return try byValue(Int32.self)
    case .int64: return try byValue(Int64.self)
    case let t: throw ctx.unsupported("index type \(t)")
    }
}
