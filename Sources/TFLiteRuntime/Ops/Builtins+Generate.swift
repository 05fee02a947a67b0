import Kernels

/// Ops that make tensors from shapes and scalars: ZEROS_LIKE, FILL, SHAPE, RANK, RANGE and
/// BROADCAST_ARGS. FILL and RANGE outputs are sized from input values, which must be
/// constant when the node is prepared.
extension OpRegistry {
    mutating func registerGenerateOps() {
        let all: [DataType] = [.float32, .int8, .uInt8, .int16, .int32, .int64, .bool]
        register(.zerosLike, types: all, prepareZerosLike)
        register(.fill, types: [.int32, .int64], outputTypes: .sameAs(input: 1), prepareFill)
        register(.shape, types: all, outputTypes: .checkedByOp, prepareShape)
        register(.rank, types: all, outputTypes: .checkedByOp, prepareRank)
        register(.range, types: [.float32, .int32, .int64], prepareRange)
        register(.broadcastArgs, types: [.int32, .int64], prepareBroadcastArgs)
    }
}

private func prepareZerosLike(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    guard x.type == y.type, let size = y.type.byteSize else { throw ctx.invalid("input type \(x.type) and output type \(y.type) must match") }
    try ctx.setOutputShape(0, x.shape)
    let bytes = x.elementCount * size, yi = y.index
    return { c in Fill.zero(byteCount: bytes, output: c.raw(yi)) }
}

private func prepareFill(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let value = try ctx.input(1), y = try ctx.output(0)
    guard value.elementCount == 1 else { throw ctx.invalid("the fill value must be a scalar, has shape \(value.shape)") }
    guard value.type == y.type, let size = y.type.byteSize else { throw ctx.invalid("value type \(value.type) and output type \(y.type) must match") }
    let dimsTensor = try ctx.input(0)
    guard dimsTensor.rank == 1 else { throw ctx.invalid("dims must be a vector, has shape \(dimsTensor.shape)") }
    let vi = value.index, yi = y.index, di = dimsTensor.index, rank = dimsTensor.shape[0]
    let wide = try ctx.requireType(input: 0, .int32, .int64) == .int64, fail = ctx.failure
    var staticCount: Int?
    if dimsTensor.isConstant {
        let dims = try ctx.constantIntegers(input: 0)
        guard dims.allSatisfy({ $0 >= 0 }) else { throw ctx.invalid("dims \(dims) has a negative entry") }
        try ctx.setOutputShape(0, dims)
        staticCount = Shape.elementCount(dims)
    } else {
        // The shape is known only once the dims are computed.
        try ctx.setOutputDynamic(0)
    }
    let kernel = FillKernel(staticCount: staticCount, rank: rank, wide: wide, vi: vi, yi: yi, di: di, fail: fail)
    guard let run = elementWidthKernel(size: size, kernel) else { throw ctx.unsupported("value type \(value.type)") }
    return run
}

/// FILL's kernel; with the dims computed at run time it checks them and sizes the output first.
private struct FillKernel: ElementWidthKernelMaker {
    let staticCount: Int?, rank: Int, wide: Bool, vi: Int, yi: Int, di: Int, fail: NodeFailure

    func make<T: BitwiseCopyable>(_: T.Type) -> NodeKernel {
        if let count = staticCount {
            return { c in Fill.run(value: c.data(vi, as: T.self)[0], count: count, output: c.data(yi, as: T.self)) }
        }
        return { c throws(InterpreterError) in
            let dims = c.integers(di, count: rank, wide: wide)
            guard dims.allSatisfy({ $0 >= 0 }) else { throw fail("dims \(dims) has a negative entry") }
            let out = try c.resize(yi, to: dims)
            Fill.run(value: c.data(vi, as: T.self)[0], count: Shape.elementCount(dims), output: out.assumingMemoryBound(to: T.self))
        }
    }
}

private func prepareShape(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    try ctx.setOutputShape(0, [x.rank])
    let shape = x.shape, yi = y.index
    switch y.type {
    case .int32:
        guard shape.allSatisfy({ $0 <= Int(Int32.max) }) else { throw ctx.invalid("shape \(shape) does not fit int32") }
        let values = shape.map { Int32($0) }
        return { c in c.data(yi, as: Int32.self).update(from: values, count: values.count) }
    case .int64:
        let values = shape.map { Int64($0) }
        return { c in c.data(yi, as: Int64.self).update(from: values, count: values.count) }
    case let t: throw ctx.unsupported("output type \(t)")
    }
}

private func prepareRank(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    guard y.type == .int32 else { throw ctx.unsupported("output type \(y.type); RANK gives int32") }
    try ctx.setOutputShape(0, [])
    let rank = Int32(x.rank), yi = y.index
    return { c in c.data(yi, as: Int32.self).pointee = rank }
}

private func prepareRange(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 1...1)
    let start = try ctx.input(0), limit = try ctx.input(1), delta = try ctx.input(2), y = try ctx.output(0)
    guard start.type == limit.type, delta.type == start.type, y.type == start.type else {
        throw ctx.invalid("start, limit, delta and output types (\(start.type), \(limit.type), \(delta.type), \(y.type)) must match")
    }
    guard start.elementCount == 1, limit.elementCount == 1, delta.elementCount == 1 else {
        throw ctx.invalid("start, limit and delta must be scalars")
    }
    let yi = y.index
    guard start.isConstant, limit.isConstant, delta.isConstant else {
        return try dynamicRange(&ctx, type: start.type, inputs: [start.index, limit.index, delta.index], output: yi)
    }
    switch start.type {
    case .int32, .int64:
        let s = try ctx.constantInteger(input: 0, what: "start"), l = try ctx.constantInteger(input: 1, what: "limit")
        let d = try ctx.constantInteger(input: 2, what: "delta")
        guard let count = RangeFill.count(start: Int64(s), limit: Int64(l), delta: Int64(d)) else {
            throw ctx.invalid("delta \(d) is zero or does not lead from \(s) to \(l)")
        }
        try ctx.setOutputShape(0, [count])
        if start.type == .int32 {
            return { c in RangeFill.run(start: Int32(truncatingIfNeeded: s), delta: Int32(truncatingIfNeeded: d), count: count, output: c.data(yi, as: Int32.self)) }
        }
        return { c in RangeFill.run(start: Int64(s), delta: Int64(d), count: count, output: c.data(yi, as: Int64.self)) }
    case .float32:
        guard let s = start.constantValues(as: Float.self)?.first, let l = limit.constantValues(as: Float.self)?.first,
              let d = delta.constantValues(as: Float.self)?.first else { throw ctx.invalid("start, limit and delta must be scalars") }
        guard let count = RangeFill.count(start: s, limit: l, delta: d) else {
            throw ctx.invalid("delta \(d) is zero or does not lead from \(s) to \(l)")
        }
        try ctx.setOutputShape(0, [count])
        return { c in RangeFill.run(start: s, delta: d, count: count, output: c.data(yi, as: Float.self)) }
    case let t:
        throw ctx.unsupported("type \(t)")
    }
}

/// RANGE whose bounds are computed at run time: the output is resized when they are known.
private func dynamicRange(_ ctx: inout PrepareContext, type: DataType, inputs: [Int], output yi: Int) throws(InterpreterError) -> NodeKernel {
    try ctx.setOutputDynamic(0)
    let fail = ctx.failure
    func integer<T: FixedWidthInteger>(_: T.Type) -> NodeKernel {
        { c throws(InterpreterError) in
            let s = c.data(inputs[0], as: T.self)[0], l = c.data(inputs[1], as: T.self)[0], d = c.data(inputs[2], as: T.self)[0]
            guard let count = RangeFill.count(start: Int64(s), limit: Int64(l), delta: Int64(d)) else {
                throw fail("delta \(d) is zero or does not lead from \(s) to \(l)")
            }
            let out = try c.resize(yi, to: [count])
            RangeFill.run(start: s, delta: d, count: count, output: out.assumingMemoryBound(to: T.self))
        }
    }
    switch type {
    case .int32: return integer(Int32.self)
    case .int64: return integer(Int64.self)
    case .float32:
        return { c throws(InterpreterError) in
            let s = c.data(inputs[0], as: Float.self)[0], l = c.data(inputs[1], as: Float.self)[0], d = c.data(inputs[2], as: Float.self)[0]
            guard let count = RangeFill.count(start: s, limit: l, delta: d) else {
                throw fail("delta \(d) is zero, does not lead from \(s) to \(l), or the length is not finite")
            }
            let out = try c.resize(yi, to: [count])
            RangeFill.run(start: s, delta: d, count: count, output: out.assumingMemoryBound(to: Float.self))
        }
    case let t: throw ctx.unsupported("type \(t)")
    }
}

private func prepareBroadcastArgs(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let a = try ctx.input(0), b = try ctx.input(1), y = try ctx.output(0)
    guard a.rank == 1, b.rank == 1 else { throw ctx.invalid("inputs must be shape vectors, have shapes \(a.shape) and \(b.shape)") }
    guard a.type == b.type, y.type == a.type else { throw ctx.invalid("input types \(a.type), \(b.type) and output \(y.type) must match") }
    let length = max(a.shape[0], b.shape[0])
    try ctx.setOutputShape(0, [length])
    let ai = a.index, bi = b.index, yi = y.index, na = a.shape[0], nb = b.shape[0], fail = ctx.failure
    func kernel<T: FixedWidthInteger>(_: T.Type) -> NodeKernel {
        { c throws(InterpreterError) in
            let pa = c.data(ai, as: T.self), pb = c.data(bi, as: T.self), out = c.data(yi, as: T.self)
            for i in 0..<length {
                // Align both shapes on their last dimension; missing leading dimensions are 1.
                let da = i < length - na ? 1 : pa[i - (length - na)]
                let db = i < length - nb ? 1 : pb[i - (length - nb)]
                guard da == db || da == 1 || db == 1 else {
                    throw fail("shapes do not broadcast: dimension \(i) is \(da) in one and \(db) in the other")
                }
                out[i] = da == 1 ? db : da
            }
        }
    }
    switch a.type {
    case .int32: return kernel(Int32.self)
    case .int64: return kernel(Int64.self)
    case let t: throw ctx.unsupported("type \(t)")
    }
}
