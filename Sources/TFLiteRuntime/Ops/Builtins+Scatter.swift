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
    let kernel = ScatterNDKernel(staticShape: staticShape, rank: rank, wide: wide, count: Shape.product(indices.shape, 0..<indices.rank - 1),
                                 depth: depth, indicesShape: indices.shape, updatesShape: updates.shape,
                                 ii: indices.index, ui: updates.index, si: shapeInput.index, yi: y.index, fail: ctx.failure)
    guard indices.type == .int32 || indices.type == .int64 else { throw ctx.unsupported("index type \(indices.type)") }
    guard let run = valueIndexKernel(kernel, value: updates.type, wideIndex: indices.type == .int64) else {
        throw ctx.unsupported("updates type \(updates.type)")
    }
    return run
}

/// SCATTER_ND's kernel; with the shape computed at run time it checks the shape and sizes the
/// output first.
private struct ScatterNDKernel: ValueIndexKernelMaker {
    let staticShape: [Int]?, rank: Int, wide: Bool, count: Int, depth: Int, indicesShape: [Int], updatesShape: [Int]
    let ii: Int, ui: Int, si: Int, yi: Int, fail: NodeFailure

    func make<T: WrappingAddable & Comparable, I: FixedWidthInteger>(_: T.Type, _: I.Type) -> NodeKernel {
        { c throws(InterpreterError) in
            var shape = staticShape ?? [], out = c.raw(yi)
            if staticShape == nil {
                shape = c.integers(si, count: rank, wide: wide)
                if let problem = scatterProblem(indices: indicesShape, updates: updatesShape, shape: shape) { throw fail(problem) }
                out = try c.resize(yi, to: shape)
            }
            do throws(KernelError) {
                try ScatterND.run(indices: c.data(ii, as: I.self), indexCount: count, indexDepth: depth,
                                  updates: c.data(ui, as: T.self), outputShape: shape, output: out.assumingMemoryBound(to: T.self))
            } catch { throw fail(error) }
        }
    }
}
