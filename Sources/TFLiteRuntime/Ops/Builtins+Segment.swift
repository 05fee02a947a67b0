import Kernels

/// SEGMENT_SUM and UNSORTED_SEGMENT_SUM/PROD/MAX/MIN over float32, int32 and int64 with
/// int32 segment ids.
extension OpRegistry {
    mutating func registerSegmentOps() {
        let types: [DataType] = [.float32, .int32, .int64]
        register(.segmentSum, types: types, prepareSegmentSum)
        register(.unsortedSegmentSum, types: types) { (c) throws(InterpreterError) in try prepareUnsortedSegment(&c, .sum) }
        register(.unsortedSegmentProd, types: types) { (c) throws(InterpreterError) in try prepareUnsortedSegment(&c, .product) }
        register(.unsortedSegmentMax, types: types) { (c) throws(InterpreterError) in try prepareUnsortedSegment(&c, .maximum) }
        register(.unsortedSegmentMin, types: types) { (c) throws(InterpreterError) in try prepareUnsortedSegment(&c, .minimum) }
    }
}

/// Where the number of output rows comes from.
private enum SegmentCount {
    /// Known at prepare.
    case fixed(Int)
    /// UNSORTED_SEGMENT_*'s num_segments, computed at run time.
    case input(RunTimeInteger)
    /// SEGMENT_SUM's ids, computed at run time: one past the last (sorted) id.
    case sortedIds
}

/// SEGMENT_SUM: ids must be sorted, and the output has one row per id up to the last, so the
/// output shape follows from the ids' values.
private func prepareSegmentSum(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let data = try ctx.input(0), ids = try ctx.input(1)
    guard data.rank >= 1, ids.rank == 1, ids.shape[0] == data.shape[0] else {
        throw ctx.invalid("segment ids \(ids.shape) must be a vector as long as the first dimension of the data \(data.shape)")
    }
    try ctx.requireType(input: 1, .int32)
    guard let values = ids.constantValues(as: Int32.self) else {
        return try segmentKernel(&ctx, .sum, data: data, ids: ids, count: .sortedIds)
    }
    if let problem = unsortedPosition(values.count, { values[$0] }) { throw ctx.invalid(problem) }
    return try segmentKernel(&ctx, .sum, data: data, ids: ids, count: .fixed(values.last.map { Int($0) + 1 } ?? 0))
}

/// Why SEGMENT_SUM's ids are invalid (negative or decreasing), or nil when they are sorted.
private func unsortedPosition(_ count: Int, _ id: (Int) -> Int32) -> String? {
    var previous: Int32 = 0
    for i in 0..<count {
        guard id(i) >= previous else {
            return "segment ids must be non-negative and sorted; id \(id(i)) at position \(i) follows \(previous)"
        }
        previous = id(i)
    }
    return nil
}

private func prepareUnsortedSegment(_ ctx: inout PrepareContext, _ reduction: SegmentReduction) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 1...1)
    let data = try ctx.input(0), ids = try ctx.input(1)
    guard ids.rank <= data.rank, Array(data.shape.prefix(ids.rank)) == ids.shape else {
        throw ctx.invalid("segment ids shape \(ids.shape) must be a prefix of the data shape \(data.shape)")
    }
    try ctx.requireType(input: 1, .int32)
    let countInput = try RunTimeInteger(ctx, input: 2, what: "num_segments")
    guard try ctx.input(2).isConstant else { return try segmentKernel(&ctx, reduction, data: data, ids: ids, count: .input(countInput)) }
    let segments = try ctx.constantInteger(input: 2, what: "num_segments")
    guard segments >= 0 else { throw ctx.invalid("num_segments \(segments) is negative") }
    if let values = ids.constantValues(as: Int32.self), let bad = values.firstIndex(where: { Int($0) >= segments }) {
        throw ctx.invalid("segment id \(values[bad]) at position \(bad) is not below num_segments \(segments)")
    }
    return try segmentKernel(&ctx, reduction, data: data, ids: ids, count: .fixed(segments))
}

private func segmentKernel(_ ctx: inout PrepareContext, _ reduction: SegmentReduction, data: TensorInfo, ids: TensorInfo,
                           count: SegmentCount) throws(InterpreterError) -> NodeKernel {
    let y = try ctx.output(0)
    let rest = Array(data.shape.dropFirst(ids.rank))
    if case .fixed(let segments) = count {
        try ctx.setOutputShape(0, [segments] + rest)
    } else {
        // The number of rows is known only once the ids or the count are computed.
        try ctx.setOutputDynamic(0)
    }
    let idCount = ids.elementCount, inner = Shape.product(rest, 0..<rest.count)
    let di = data.index, ii = ids.index, yi = y.index, fail = ctx.failure
    func kernel<T: SegmentElement>(_: T.Type) -> NodeKernel {
        { c throws(InterpreterError) in
            let idp = c.data(ii, as: Int32.self)
            var out = c.raw(yi), segments: Int
            switch count {
            case .fixed(let n):
                segments = n
            case .input(let n):
                segments = n.read(c)
                guard segments >= 0 else { throw fail("num_segments \(segments) is negative") }
                out = try c.resize(yi, to: [segments] + rest)
            case .sortedIds:
                if let problem = unsortedPosition(idCount, { idp[$0] }) { throw fail(problem) }
                segments = idCount == 0 ? 0 : Int(idp[idCount - 1]) + 1
                out = try c.resize(yi, to: [segments] + rest)
            }
            do throws(KernelError) {
                try SegmentReduce.run(reduction, data: c.data(di, as: T.self), ids: idp, idCount: idCount, inner: inner,
                                      segments: segments, output: out.assumingMemoryBound(to: T.self))
            } catch { throw fail(error) }
        }
    }
    switch data.type {
    case .float32: return kernel(Float.self)
    case .int32: return kernel(Int32.self)
    case .int64: return kernel(Int64.self)
    case let t: throw ctx.unsupported("data type \(t)")
    }
}
