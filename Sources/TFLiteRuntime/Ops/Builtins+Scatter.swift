import Kernels

/// SCATTER_ND over float32, int8, uint8, int32 and int64 updates with int32 or int64 indices.
extension OpRegistry {
    mutating func registerScatterOps() {
        register(.scatterNd, types: [.int32, .int64], outputTypes: .sameAs(input: 1), prepareScatterND)
    }
}

/// Why `shape` cannot receive `updates` at `indices`, or nil when it can.
private func scatterProblem(indices: [Int], updates: [Int], shape: [Int]) -> String? {
    guard shape.allSatisfy({ $0 >= 0 }) else { return "output shape \(shape) has a negative dimension" }
    let depth = indices.last ?? 0
    guard depth >= 1, depth <= shape.count else { return "index depth \(depth) must be in 1...\(shape.count) (the output rank)" }
    let expected = Array(indices.dropLast()) + shape.dropFirst(depth)
    guard updates == expected else { return "updates have shape \(updates); indices \(indices) into shape \(shape) need \(expected)" }
    return nil
}

private func prepareScatterND(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 1...1)
    let indices = try ctx.input(0), updates = try ctx.input(1), shapeInput = try ctx.input(2), y = try ctx.output(0)
    guard indices.rank >= 1 else { throw ctx.invalid("indices must have rank 1 or more, have shape \(indices.shape)") }
    guard shapeInput.rank == 1 else { throw ctx.invalid("shape must be a vector, is \(shapeInput.shape)") }
    let depth = indices.shape[indices.rank - 1], rank = shapeInput.shape[0]
    let wide = try ctx.requireType(input: 2, .int32, .int64) == .int64
    var staticShape: [Int]?
    if shapeInput.isConstant {
        let shape = try ctx.constantIntegers(input: 2)
        if let problem = scatterProblem(indices: indices.shape, updates: updates.shape, shape: shape) { throw ctx.invalid(problem) }
        try ctx.setOutputShape(0, shape)
        staticShape = shape
    } else {
        // The output shape is known only once the shape input is computed.
        try ctx.setOutputDynamic(0)
    }
    let count = Shape.product(indices.shape, 0..<indices.rank - 1), indicesShape = indices.shape, updatesShape = updates.shape
    let ii = indices.index, ui = updates.index, si = shapeInput.index, yi = y.index, fail = ctx.failure
    func kernel<T: WrappingAddable, I: FixedWidthInteger>(_: T.Type, _: I.Type) -> NodeKernel {
        { c throws(InterpreterError) in
            var shape = staticShape ?? [], out = c.raw(yi)
            if staticShape == nil {
                shape = (0..<rank).map { wide ? Int(truncatingIfNeeded: c.data(si, as: Int64.self)[$0]) : Int(c.data(si, as: Int32.self)[$0]) }
                if let problem = scatterProblem(indices: indicesShape, updates: updatesShape, shape: shape) { throw fail(problem) }
                out = try c.resize(yi, to: shape)
            }
            do throws(KernelError) {
                try ScatterND.run(indices: c.data(ii, as: I.self), indexCount: count, indexDepth: depth,
                                  updates: c.data(ui, as: T.self), outputShape: shape, output: out.assumingMemoryBound(to: T.self))
            } catch { throw fail(error) }
        }
    }
    func byValue<I: FixedWidthInteger>(_: I.Type) throws(InterpreterError) -> NodeKernel {
        switch updates.type {
        case .float32: return kernel(Float.self, I.self)
        case .int8: return kernel(Int8.self, I.self)
        case .uInt8: return kernel(UInt8.self, I.self)
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
