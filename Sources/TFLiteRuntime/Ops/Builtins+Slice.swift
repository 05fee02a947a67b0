import Kernels

/// SLICE and STRIDED_SLICE. Their begin/end/size inputs are normally constants, resolved once
/// here; STRIDED_SLICE also accepts them computed at run time (a dynamic output).
extension OpRegistry {
    mutating func registerSliceOps() {
        let all = OpRegistry.elementMovingTypes
        register(.slice, types: all + [.int4], prepareSlice)
        register(.stridedSlice, types: all, prepareStridedSlice)
    }
}

private func prepareSlice(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 1...1)
    let x = try ctx.input(0)
    let begin = try ctx.constantIntegers(input: 1)
    var size = try ctx.constantIntegers(input: 2)
    guard begin.count == x.rank, size.count == x.rank else {
        throw ctx.invalid("begin \(begin) and size \(size) must have one entry per axis of shape \(x.shape)")
    }
    for d in 0..<x.rank {
        let dim = x.shape[d]
        guard begin[d] >= 0, begin[d] <= dim else { throw ctx.invalid("begin \(begin[d]) out of range for axis \(d) of extent \(dim)") }
        if size[d] == -1 { size[d] = dim - begin[d] }
        guard size[d] >= 0, size[d] <= dim - begin[d] else {
            throw ctx.invalid("size \(size[d]) from begin \(begin[d]) exceeds axis \(d) of extent \(dim)")
        }
    }
    try ctx.setOutputShape(0, size)
    if x.type == .int4 { return try prepareSliceInt4(&ctx, begin: begin, size: size) }
    return try ctx.indexMapCopyKernel { StridedSlice.planSlice(inputShape: x.shape, begin: begin, size: size, elementSize: $0) }
}

/// SLICE of packed int4 values, as LiteRT's SliceInt4 takes them: unpacked into a buffer of
/// this node's, sliced as bytes, packed into the output.
private func prepareSliceInt4(_ ctx: inout PrepareContext, begin: [Int], size: [Int]) throws(InterpreterError) -> NodeKernel {
    let x = try ctx.input(0), y = try ctx.output(0)
    guard y.type == .int4 else { throw ctx.invalid("output type \(y.type) must be INT4, as the input is") }
    let copy = StridedSlice.planSlice(inputShape: x.shape, begin: begin, size: size, elementSize: 1)
    let xi = x.index, yi = y.index, count = x.elementCount, outputCount = size.reduce(1, *)
    let unpacked = AlignedBuffer(byteCount: count), sliced = AlignedBuffer(byteCount: outputCount)
    return { c in
        PackedInt4.unpack(c.data(xi, as: UInt8.self), from: 0, count: count, into: unpacked.pointer.assumingMemoryBound(to: Int8.self))
        copy.run(input: unpacked.pointer, output: sliced.pointer)
        let values = sliced.pointer.assumingMemoryBound(to: Int8.self)
        packInt4(count: outputCount, into: c.data(yi, as: UInt8.self)) { values[$0] }
    }
}

private func prepareStridedSlice(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...4, outputs: 1...1)
    guard case .stridedSliceOptions(let o)? = ctx.options else { throw ctx.invalid("missing StridedSliceOptions") }
    let x = try ctx.input(0)
    let bytes = try ctx.elementSize(x, role: "input")
    let inputShape = x.shape
    let n = try ctx.input(1).elementCount
    for i in 1..<ctx.inputCount {
        let t = try ctx.input(i)
        guard t.rank == 1, t.elementCount == n, t.type == .int32 || t.type == .int64 else {
            throw ctx.invalid("begin, end and strides must be int32 or int64 vectors of one length; input \(i) is \(t.type) \(t.shape)")
        }
    }
    /// Resolves the specification, or nil when it is invalid for this input.
    func resolve(_ begin: [Int], _ end: [Int], _ strides: [Int]) -> StridedSlice.Resolved? {
        StridedSlice.resolve(inputShape: inputShape, begin: begin, end: end, strides: strides,
                             beginMask: o.beginMask, endMask: o.endMask, ellipsisMask: o.ellipsisMask,
                             newAxisMask: o.newAxisMask, shrinkAxisMask: o.shrinkAxisMask, offset: o.offset)
    }
    let hasStrides = ctx.inputCount == 4
    let specInputs = Array(1..<ctx.inputCount)
    let xi = x.index, yi = try ctx.output(0).index
    var allConstant = true
    for i in specInputs where !(try ctx.input(i).isConstant) { allConstant = false }
    if allConstant {
        let begin = try ctx.constantIntegers(input: 1), end = try ctx.constantIntegers(input: 2)
        let strides = hasStrides ? try ctx.constantIntegers(input: 3) : [Int](repeating: 1, count: n)
        guard let resolved = resolve(begin, end, strides) else {
            throw ctx.invalid("begin \(begin), end \(end), strides \(strides) with masks (begin \(o.beginMask), end \(o.endMask), ellipsis \(o.ellipsisMask), new axis \(o.newAxisMask), shrink \(o.shrinkAxisMask)) do not describe a slice of shape \(inputShape)")
        }
        try ctx.setOutputShape(0, resolved.outputShape)
        return try ctx.indexMapCopyKernel { StridedSlice.plan(inputShape: inputShape, resolved: resolved, elementSize: $0) }
    }
    // The specification is computed at run time: resolve it, then size the output, per invoke.
    try ctx.setOutputDynamic(0)
    let spec = specInputs.map { (index: ctx.inputIndices[$0], is64: (try? ctx.input($0).type) == .int64) }
    let node = ctx.nodeIndex
    return { (c) throws(InterpreterError) in
        func values(_ k: Int) -> [Int] {
            let s = spec[k]
            return c.integers(s.index, count: n, wide: s.is64)
        }
        let begin = values(0), end = values(1), strides = hasStrides ? values(2) : [Int](repeating: 1, count: n)
        guard let resolved = resolve(begin, end, strides) else {
            throw .invokeFailed(node: node, op: "STRIDED_SLICE", reason: "begin \(begin), end \(end), strides \(strides) do not describe a slice of shape \(inputShape)")
        }
        let out = try c.resize(yi, to: resolved.outputShape)
        StridedSlice.apply(input: c.raw(xi), inputShape: inputShape, resolved: resolved, elementSize: bytes, output: out)
    }
}
