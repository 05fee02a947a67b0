import Kernels

/// Ops that turn integer indices into values: ONE_HOT, BUCKETIZE, EMBEDDING_LOOKUP (rows of any
/// element type, and 8-bit tables dequantised into float rows).
extension OpRegistry {
    mutating func registerIndexOps() {
        register(.oneHot, types: [.int32, .int64], prepareOneHot)
        register(.bucketize, types: [.float32, .int32, .int64], prepareBucketize)
        register(.embeddingLookup, types: [.int32], prepareEmbeddingLookup)
    }
}

private func prepareOneHot(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 4...4, outputs: 1...1)
    let indices = try ctx.input(0), on = try ctx.input(2), off = try ctx.input(3), y = try ctx.output(0)
    let depthInput = try RunTimeInteger(ctx, input: 1, what: "depth")
    guard on.elementCount == 1, off.elementCount == 1 else {
        throw ctx.invalid("on and off values must be scalars, have shapes \(on.shape) and \(off.shape)")
    }
    guard on.type == y.type, off.type == y.type else {
        throw ctx.invalid("on/off types \(on.type)/\(off.type) differ from the output type \(y.type)")
    }
    var axis = -1
    if case .oneHotOptions(let o)? = ctx.options { axis = Int(o.axis) }
    let position = try ctx.resolveAxis(axis, rank: indices.rank + 1)
    let indicesShape = indices.shape
    func shape(_ depth: Int) -> [Int] {
        var s = indicesShape
        s.insert(depth, at: position)
        return s
    }
    var staticDepth: Int?
    if try ctx.input(1).isConstant {
        let depth = try ctx.constantInteger(input: 1, what: "depth")
        guard depth >= 0 else { throw ctx.invalid("depth \(depth) is negative") }
        try ctx.setOutputShape(0, shape(depth))
        staticDepth = depth
    } else {
        // The output shape is known only once the depth is computed.
        try ctx.setOutputDynamic(0)
    }
    let outer = Shape.product(indices.shape, 0..<position), inner = Shape.product(indices.shape, position..<indices.rank)
    let ii = indices.index, oni = on.index, offi = off.index, yi = y.index, fail = ctx.failure
    func kernel<T, I: FixedWidthInteger>(_: T.Type, _: I.Type) -> NodeKernel {
        { c throws(InterpreterError) in
            var depth = staticDepth ?? 0, out = c.raw(yi)
            if staticDepth == nil {
                depth = depthInput.read(c)
                guard depth >= 0 else { throw fail("depth \(depth) is negative") }
                out = try c.resize(yi, to: shape(depth))
            }
            OneHot.run(indices: c.data(ii, as: I.self), outer: outer, depth: depth, inner: inner, on: c.data(oni, as: T.self)[0],
                       off: c.data(offi, as: T.self)[0], output: out.assumingMemoryBound(to: T.self))
        }
    }
    func kernel<T>(_: T.Type) throws(InterpreterError) -> NodeKernel {
        switch indices.type {
        case .int32: return kernel(T.self, Int32.self)
        case .int64: return kernel(T.self, Int64.self)
        case let t: throw ctx.unsupported("index type \(t)")
        }
    }
    switch y.type {
    case .float32, .int32: return try kernel(UInt32.self)
    case .int64: return try kernel(UInt64.self)
    case .int8, .uint8, .bool: return try kernel(UInt8.self)
    case .int16: return try kernel(UInt16.self)
    case let t: throw ctx.unsupported("output type \(t)")
    }
}

private func prepareBucketize(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    guard case .bucketizeOptions(let o)? = ctx.options else { throw ctx.invalid("missing BucketizeOptions") }
    let boundaries = o.boundaries
    for i in boundaries.indices.dropFirst() where !(boundaries[i - 1] <= boundaries[i]) {
        throw ctx.invalid("boundaries must be sorted ascending; entry \(i) (\(boundaries[i])) follows \(boundaries[i - 1])")
    }
    guard y.type == .int32 else { throw ctx.invalid("output must be int32, is \(y.type)") }
    try ctx.setOutputShape(0, x.shape)
    let n = x.elementCount, xi = x.index, yi = y.index
    switch x.type {
    case .float32:
        return { c in Bucketize.run(input: c.data(xi, as: Float.self), count: n, boundaries: boundaries, output: c.data(yi, as: Int32.self)) }
    case .int32:
        return { c in Bucketize.run(integers: c.data(xi, as: Int32.self), count: n, boundaries: boundaries, output: c.data(yi, as: Int32.self)) }
    case .int64:
        return { c in Bucketize.run(integers: c.data(xi, as: Int64.self), count: n, boundaries: boundaries, output: c.data(yi, as: Int32.self)) }
    case let t: throw ctx.unsupported("input type \(t)")
    }
}

private func prepareEmbeddingLookup(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let ids = try ctx.input(0), table = try ctx.input(1), y = try ctx.output(0)
    guard ids.rank == 1 else { throw ctx.invalid("ids must be a vector, have shape \(ids.shape)") }
    guard table.rank >= 1 else { throw ctx.invalid("the table must have rank 1 or more, has shape \(table.shape)") }
    try ctx.requireType(input: 0, .int32)
    if (table.type == .int8 || table.type == .uint8) && y.type == .float32 {
        return try prepareHybridEmbeddingLookup(&ctx, ids: ids, table: table)
    }
    guard table.type == y.type, let size = y.type.byteSize else {
        throw ctx.unsupported("table type \(table.type) with output type \(y.type)")
    }
    try ctx.setOutputShape(0, [ids.shape[0]] + table.shape.dropFirst())
    let rows = table.shape[0], rowBytes = Shape.product(table.shape, 1..<table.rank) * size
    let count = ids.shape[0], ii = ids.index, ti = table.index, yi = y.index, fail = ctx.failure
    if let known = ids.constantValues(as: Int32.self), let bad = known.firstIndex(where: { $0 < 0 || Int($0) >= rows }) {
        throw ctx.invalid("id \(known[bad]) at position \(bad) is outside the table's \(rows) rows")
    }
    return { c throws(InterpreterError) in
        do throws(KernelError) {
            try EmbeddingLookup.run(ids: c.data(ii, as: Int32.self), count: count, table: c.raw(ti), rows: rows,
                                    rowBytes: rowBytes, output: c.raw(yi))
        } catch { throw fail(error) }
    }
}

/// EMBEDDING_LOOKUP of an 8-bit table into float32 rows (dynamic-range models).
private func prepareHybridEmbeddingLookup(_ ctx: inout PrepareContext, ids: TensorInfo, table: TensorInfo) throws(InterpreterError) -> NodeKernel {
    guard let q = table.quantization, !q.scales.isEmpty, q.scales.count == 1 || q.scales.count == table.shape[0] else {
        throw ctx.invalid("the 8-bit table needs one scale or one per row (\(table.shape[0])), has \(table.quantization?.scales.count ?? 0)")
    }
    try ctx.setOutputShape(0, [ids.shape[0]] + table.shape.dropFirst())
    let rows = table.shape[0], rowLength = Shape.product(table.shape, 1..<table.rank), scales = q.scales
    let count = ids.shape[0], ii = ids.index, ti = table.index, yi = try ctx.output(0).index, fail = ctx.failure
    return { c throws(InterpreterError) in
        do throws(KernelError) {
            try EmbeddingLookup.dequantizing(ids: c.data(ii, as: Int32.self), count: count, table: c.data(ti, as: Int8.self), rows: rows,
                                             rowLength: rowLength, scales: scales, output: c.data(yi, as: Float.self))
        } catch { throw fail(error) }
    }
}
