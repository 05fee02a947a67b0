import Kernels

/// Ops that turn integer indices into values: ONE_HOT, BUCKETIZE, EMBEDDING_LOOKUP (rows of any
/// element type, and 8-bit tables dequantised into float rows), EMBEDDING_LOOKUP_SPARSE (float
/// rows combined per bucket) and HASHTABLE_LOOKUP (rows found by int32 key).
extension OpRegistry {
    mutating func registerIndexOps() {
        register(.oneHot, types: [.int32, .int64], outputTypes: .sameAs(input: 2), prepareOneHot)
        register(.bucketize, types: [.float32, .int32, .int64], outputTypes: .checkedByOp, prepareBucketize)
        register(.embeddingLookup, types: [.int32], outputTypes: .checkedByOp, prepareEmbeddingLookup)
        register(.embeddingLookupSparse, types: [.int32], outputTypes: .checkedByOp, prepareEmbeddingLookupSparse)
        register(.hashtableLookup, types: [.int32], outputTypes: .checkedByOp, prepareHashtableLookup)
    }
}

/// Inputs: 0 ids `[lookups]`, 1 indices `[lookups, rank]`, 2 the dense shape `[rank]`, 3 weights
/// `[lookups]`, 4 the table `[rows, ...]`; the output is `dense shape minus its last entry ++
/// the table's row shape`, so it is sized from the dense shape's values.
private func prepareEmbeddingLookupSparse(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 5...5, outputs: 1...1)
    let ids = try ctx.input(0), indices = try ctx.input(1), dense = try ctx.input(2), weights = try ctx.input(3)
    let table = try ctx.input(4), y = try ctx.output(0)
    for i in 0...2 { try ctx.requireType(input: i, .int32) }
    try ctx.requireType(input: 3, .float32)
    try ctx.requireType(input: 4, .float32)
    guard y.type == .float32 else { throw ctx.invalid("output type \(y.type) must be float32") }
    guard ids.rank == 1, indices.rank == 2, dense.rank == 1, weights.rank == 1, table.rank >= 2 else {
        throw ctx.invalid("ids, indices, dense shape, weights and table must have ranks 1, 2, 1, 1 and >= 2; have shapes \(ids.shape), \(indices.shape), \(dense.shape), \(weights.shape), \(table.shape)")
    }
    let lookups = ids.shape[0], lookupRank = indices.shape[1]
    guard indices.shape[0] == lookups, weights.shape[0] == lookups else {
        throw ctx.invalid("ids, indices and weights must list one entry per lookup (\(lookups))")
    }
    guard lookupRank >= 1, dense.shape[0] == lookupRank else {
        throw ctx.invalid("the dense shape has \(dense.shape[0]) entries, the indices \(lookupRank) columns")
    }
    let rowShape = Array(table.shape.dropFirst()), embeddingSize = Shape.elementCount(rowShape), rows = table.shape[0]
    let combiner: EmbeddingLookupSparse.Combiner
    switch ctx.options {
    case .embeddingLookupSparseOptions(let o)?:
        switch o.combiner {
        case .sum: combiner = .sum
        case .mean: combiner = .mean
        case .sqrtn: combiner = .sqrtn
        }
    default: throw ctx.invalid("missing EmbeddingLookupSparseOptions")
    }
    let di = dense.index, ii = ids.index, xi = indices.index, wi = weights.index, ti = table.index, yi = y.index, fail = ctx.failure
    let run = { (c: InvokeContext, shape: [Int], out: UnsafeMutableRawPointer) throws(InterpreterError) in
        do throws(KernelError) {
            try EmbeddingLookupSparse.run(ids: c.data(ii, as: Int32.self), indices: c.data(xi, as: Int32.self), lookups: lookups,
                                          lookupRank: lookupRank, denseShape: shape, weights: c.data(wi, as: Float.self),
                                          table: c.data(ti, as: Float.self), rows: rows, embeddingSize: embeddingSize,
                                          combiner: combiner, output: out.assumingMemoryBound(to: Float.self))
        } catch { throw fail(error) }
    }
    if dense.isConstant {
        let shape = try ctx.constantIntegers(input: 2)
        guard shape.allSatisfy({ $0 >= 0 }) else { throw ctx.invalid("dense shape \(shape) has a negative entry") }
        try ctx.setOutputShape(0, Array(shape.dropLast()) + rowShape)
        return { c throws(InterpreterError) in try run(c, shape, c.raw(yi)) }
    }
    try ctx.setOutputDynamic(0)
    return { c throws(InterpreterError) in
        let shape = (0..<lookupRank).map { Int(c.data(di, as: Int32.self)[$0]) }
        guard shape.allSatisfy({ $0 >= 0 }) else { throw fail("dense shape \(shape) has a negative entry") }
        try run(c, shape, try c.resize(yi, to: Array(shape.dropLast()) + rowShape))
    }
}

/// Inputs: 0 queries `[n]`, 1 keys `[rows]` (int32), 2 values `[rows, ...]` of any fixed-size
/// type; outputs: 0 the found rows `[n, ...]`, 1 hits `[n]` (uint8).
private func prepareHashtableLookup(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 2...2)
    let queries = try ctx.input(0), keys = try ctx.input(1), values = try ctx.input(2), y = try ctx.output(0), hits = try ctx.output(1)
    try ctx.requireType(input: 0, .int32)
    try ctx.requireType(input: 1, .int32)
    guard queries.rank == 1, keys.rank == 1, values.rank >= 1, values.shape[0] == keys.shape[0], keys.shape[0] > 0 else {
        throw ctx.invalid("queries [n], keys [rows > 0] and values [rows, ...] expected; have \(queries.shape), \(keys.shape), \(values.shape)")
    }
    let size = try ctx.elementSize(values, role: "values")
    guard y.type == values.type else { throw ctx.invalid("output type \(y.type) must be the values' \(values.type)") }
    guard hits.type == .uInt8 else { throw ctx.invalid("the hits output must be uint8, is \(hits.type)") }
    let count = queries.shape[0], rows = keys.shape[0], rowBytes = size * (values.elementCount / rows)
    try ctx.setOutputShape(0, [count] + values.shape.dropFirst())
    try ctx.setOutputShape(1, [count])
    let qi = queries.index, ki = keys.index, vi = values.index, yi = y.index, hi = hits.index
    return { c in
        HashtableLookup.run(queries: c.data(qi, as: Int32.self), count: count, keys: c.data(ki, as: Int32.self), rows: rows,
                            values: c.raw(vi), rowBytes: rowBytes, output: c.raw(yi), hits: c.data(hi, as: UInt8.self))
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
    case .int8, .uInt8, .bool: return try kernel(UInt8.self)
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
    if (table.type == .int8 || table.type == .uInt8) && y.type == .float32 {
        return try prepareHybridEmbeddingLookup(&ctx, ids: ids, table: table)
    }
    if table.type == .int4 {
        return try prepareInt4EmbeddingLookup(&ctx, ids: ids, table: table)
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

/// EMBEDDING_LOOKUP of an int4 table into float32 rows: blockwise (transformer token
/// embeddings) or with one scale per tensor or per row.
private func prepareInt4EmbeddingLookup(_ ctx: inout PrepareContext, ids: TensorInfo, table: TensorInfo) throws(InterpreterError) -> NodeKernel {
    let y = try ctx.output(0)
    guard y.type == .float32 else { throw ctx.unsupported("int4 table with output type \(y.type) (float32 only)") }
    try ctx.setOutputShape(0, [ids.shape[0]] + table.shape.dropFirst())
    let count = ids.shape[0], ii = ids.index, yi = y.index, fail = ctx.failure
    if table.blockwise != nil {
        let weights = try ctx.blockwiseInt4Weights(table, role: "table")
        return { c throws(InterpreterError) in
            do throws(KernelError) {
                try EmbeddingLookup.blockwiseInt4(ids: c.data(ii, as: Int32.self), count: count, table: weights,
                                                  output: c.data(yi, as: Float.self))
            } catch { throw fail(error) }
        }
    }
    let rows = table.shape[0], rowLength = Shape.product(table.shape, 1..<table.rank)
    guard let q = table.quantization, q.scales.count == 1 || (q.scales.count == rows && q.quantizedDimension == 0) else {
        throw ctx.invalid("the int4 table needs one scale or one per row (\(rows)), has \(table.quantization?.scales.count ?? 0)")
    }
    guard q.zeroPoints.allSatisfy({ $0 == 0 }) else { throw ctx.unsupported("int4 table with non-zero zero points") }
    guard let data = table.constantData else { throw ctx.unsupported("non-constant int4 table") }
    let packed = data.assumingMemoryBound(to: UInt8.self), scales = q.scales
    return { c throws(InterpreterError) in
        do throws(KernelError) {
            try EmbeddingLookup.int4(ids: c.data(ii, as: Int32.self), count: count, table: packed, rows: rows, rowLength: rowLength,
                                     scales: scales, output: c.data(yi, as: Float.self))
        } catch { throw fail(error) }
    }
}
