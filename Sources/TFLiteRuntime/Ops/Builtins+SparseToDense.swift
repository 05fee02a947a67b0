import Kernels

/// SPARSE_TO_DENSE: a dense tensor of rank at most 4 filled with a default value, with values
/// scattered at listed coordinates; float32, int8, uint8, int32 and int64 values, int32 or
/// int64 indices. The dense shape may be computed at run time (the output is then dynamic).
extension OpRegistry {
    mutating func registerSparseToDenseOps() {
        register(.sparseToDense, types: [.float32, .int8, .uInt8, .int32, .int64], outputTypes: .sameAs(input: 2), prepareSparseToDense)
    }
}

private func prepareSparseToDense(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 4...4, outputs: 1...1)
    let indices = try ctx.input(0), shapeInput = try ctx.input(1), values = try ctx.input(2), fallback = try ctx.input(3)
    let y = try ctx.output(0)
    let indexWide = try ctx.requireType(input: 0, .int32, .int64) == .int64
    let shapeWide = try ctx.requireType(input: 1, .int32, .int64) == .int64
    guard values.type == fallback.type, y.type == values.type else {
        throw ctx.invalid("values, default value and output types (\(values.type), \(fallback.type), \(y.type)) must match")
    }
    guard indices.rank <= 2 else { throw ctx.invalid("indices must have rank 0, 1 or 2, have shape \(indices.shape)") }
    guard shapeInput.rank == 1 else { throw ctx.invalid("the output shape must be a vector, is \(shapeInput.shape)") }
    guard values.rank <= 1 else { throw ctx.invalid("values must be a scalar or a vector, have shape \(values.shape)") }
    guard fallback.elementCount == 1 else { throw ctx.invalid("the default value must be a single element, has shape \(fallback.shape)") }
    let rank = shapeInput.shape[0]
    // Rank 0 or 1 indices address a vector; a matrix lists one coordinate row per value.
    let count = indices.rank < 2 ? indices.elementCount : indices.shape[0]
    let depth = indices.rank < 2 ? 1 : indices.shape[1]
    guard depth == rank else { throw ctx.invalid("indices give \(depth) coordinates per value, the output shape has \(rank) entries") }
    guard rank <= 4 else { throw ctx.unsupported("output rank \(rank); LiteRT's SPARSE_TO_DENSE handles up to 4") }
    let scalarValue = values.rank == 0
    guard scalarValue || values.elementCount == count else { throw ctx.invalid("\(values.elementCount) values for \(count) indices") }
    var staticShape: [Int]?
    if shapeInput.isConstant {
        let shape = try ctx.constantIntegers(input: 1)
        guard shape.allSatisfy({ $0 >= 0 }) else { throw ctx.invalid("output shape \(shape) has a negative dimension") }
        try ctx.setOutputShape(0, shape)
        staticShape = shape
    } else {
        try ctx.setOutputDynamic(0)
    }
    let kernel = SparseToDenseKernel(staticShape: staticShape, rank: rank, shapeWide: shapeWide, count: count, depth: depth,
                                     scalarValue: scalarValue, ii: indices.index, si: shapeInput.index, vi: values.index,
                                     di: fallback.index, yi: y.index, fail: ctx.failure)
    guard let run = valueIndexKernel(kernel, value: values.type, wideIndex: indexWide) else { throw ctx.unsupported("values type \(values.type)") }
    return run
}

/// SPARSE_TO_DENSE's kernel; with the shape computed at run time it checks the shape and sizes
/// the output first.
private struct SparseToDenseKernel: ValueIndexKernelMaker {
    let staticShape: [Int]?, rank: Int, shapeWide: Bool, count: Int, depth: Int, scalarValue: Bool
    let ii: Int, si: Int, vi: Int, di: Int, yi: Int, fail: NodeFailure

    func make<T: WrappingAddable & Comparable, I: FixedWidthInteger>(_: T.Type, _: I.Type) -> NodeKernel {
        { c throws(InterpreterError) in
            var shape = staticShape ?? [], out = c.raw(yi)
            if staticShape == nil {
                shape = c.integers(si, count: rank, wide: shapeWide)
                guard shape.allSatisfy({ $0 >= 0 }) else { throw fail("output shape \(shape) has a negative dimension") }
                out = try c.resize(yi, to: shape)
            }
            do throws(KernelError) {
                try SparseToDense.run(indices: c.data(ii, as: I.self), count: count, depth: depth, values: c.data(vi, as: T.self),
                                      scalarValue: scalarValue, defaultValue: c.data(di, as: T.self)[0], outputShape: shape,
                                      output: out.assumingMemoryBound(to: T.self))
            } catch { throw fail(error) }
        }
    }
}
