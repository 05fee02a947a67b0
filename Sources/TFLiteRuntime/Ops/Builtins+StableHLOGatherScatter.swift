import Kernels

/// STABLEHLO_GATHER and STABLEHLO_SCATTER. Their dimension numbers are checked here against the
/// operand, indices and updates shapes, so the kernels only ever read inside their tensors;
/// index values need no check (gather clamps them, scatter skips what falls outside).
extension OpRegistry {
    mutating func registerStableHLOGatherScatterOps() {
        register(.stablehloGather, types: OpRegistry.stableHLOElementTypes, prepareHLOGather)
        register(.stablehloScatter, types: OpRegistry.stableHLOElementTypes, prepareHLOScatter)
    }
}

/// `index_vector_dim`, which may equal the indices' rank (each index is then one number).
private func indexVectorDim(_ ctx: PrepareContext, _ value: Int64, indices: TensorInfo) throws(InterpreterError) -> Int {
    guard value >= 0, value <= Int64(indices.rank) else {
        throw ctx.invalid("index_vector_dim \(value) is outside 0...\(indices.rank) for indices \(indices.shape)")
    }
    return Int(value)
}

/// Axis numbers, each below `bound` and none repeated, in the order given.
private func distinctAxes(_ ctx: PrepareContext, _ values: [Int64], below bound: Int, what: String) throws(InterpreterError) -> [Int] {
    guard values.allSatisfy({ $0 >= 0 && $0 < Int64(bound) }), Set(values).count == values.count else {
        throw ctx.invalid("\(what) \(values) must be distinct axes below \(bound)")
    }
    return values.map { Int($0) }
}

/// Input 1, the start or scatter indices: int32 or int64.
private func indicesInput(_ ctx: PrepareContext) throws(InterpreterError) -> TensorInfo {
    let t = try ctx.input(1)
    guard t.type == .int32 || t.type == .int64 else { throw ctx.unsupported("indices have type \(t.type); LiteRT takes int32 or int64") }
    return t
}

private func prepareHLOGather(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    guard case .stablehloGatherOptions(let o)? = ctx.options2 else { throw ctx.invalid("missing StablehloGatherOptions") }
    let x = try ctx.input(0), indices = try indicesInput(ctx)
    let size = try ctx.elementSize(x, role: "operand")
    guard [1, 2, 4, 8].contains(size) else { throw ctx.unsupported("operand type \(x.type); LiteRT gathers 8, 16, 32 and 64-bit elements") }
    let ivd = try indexVectorDim(ctx, o.indexVectorDim, indices: indices)
    let vectorSize = ivd == indices.rank ? 1 : indices.shape[ivd]
    guard o.sliceSizes.count == x.rank else { throw ctx.invalid("slice_sizes has \(o.sliceSizes.count) entries for an operand of rank \(x.rank)") }
    for d in 0..<x.rank where o.sliceSizes[d] < 0 || o.sliceSizes[d] > Int64(x.shape[d]) {
        throw ctx.invalid("slice size \(o.sliceSizes[d]) of axis \(d) is outside 0...\(x.shape[d])")
    }
    let sliceSizes = o.sliceSizes.map { Int($0) }
    let collapsed = try distinctAxes(ctx, o.collapsedSliceDims, below: x.rank, what: "collapsed_slice_dims")
    for d in collapsed where sliceSizes[d] != 1 {
        throw ctx.invalid("collapsed axis \(d) must have slice size 1, has \(sliceSizes[d])")
    }
    let batchRank = ivd == indices.rank ? indices.rank : indices.rank - 1
    let offsetCount = x.rank - collapsed.count
    // Offset axes are placed in increasing order whatever order they are listed in, as in LiteRT.
    let offsetDims = try distinctAxes(ctx, o.offsetDims, below: offsetCount + batchRank, what: "offset_dims").sorted()
    guard offsetDims.count == offsetCount else {
        throw ctx.invalid("offset_dims \(o.offsetDims) must name one output axis per uncollapsed operand axis (\(offsetCount))")
    }
    let startIndexMap = try distinctAxes(ctx, o.startIndexMap, below: x.rank, what: "start_index_map")
    guard startIndexMap.count == vectorSize else {
        throw ctx.invalid("start_index_map \(o.startIndexMap) must have one entry per index vector component (\(vectorSize))")
    }
    let plan = HLOGatherPlan(operandShape: x.shape, indicesShape: indices.shape, offsetDims: offsetDims, collapsedSliceDims: collapsed,
                             startIndexMap: startIndexMap, indexVectorDim: ivd, sliceSizes: sliceSizes)
    try ctx.setOutputShape(0, plan.outputShape)
    ctx.requestScratch(bytes: plan.scratchCount * MemoryLayout<Int>.stride)
    let xi = x.index, ii = indices.index, yi = try ctx.output(0).index
    if indices.type == .int64 {
        return { c in
            plan.run(operand: c.raw(xi), indices: c.data(ii, as: Int64.self), elementSize: size, output: c.raw(yi),
                     starts: c.scratch.assumingMemoryBound(to: Int.self))
        }
    }
    return { c in
        plan.run(operand: c.raw(xi), indices: c.data(ii, as: Int32.self), elementSize: size, output: c.raw(yi),
                 starts: c.scratch.assumingMemoryBound(to: Int.self))
    }
}

private func prepareHLOScatter(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 1...1)
    guard case .stablehloScatterOptions(let o)? = ctx.options2 else { throw ctx.invalid("missing StablehloScatterOptions") }
    let x = try ctx.input(0), indices = try indicesInput(ctx), updates = try ctx.input(2)
    guard updates.type == x.type else { throw ctx.invalid("updates have type \(updates.type), the operand \(x.type)") }
    let ivd = try indexVectorDim(ctx, o.indexVectorDim, indices: indices)
    let vectorSize = ivd == indices.rank ? 1 : indices.shape[ivd]
    let windowDims = try distinctAxes(ctx, o.updateWindowDims, below: updates.rank, what: "update_window_dims")
    let inserted = try distinctAxes(ctx, o.insertedWindowDims, below: x.rank, what: "inserted_window_dims")
    guard windowDims.count + inserted.count == x.rank else {
        throw ctx.invalid("update_window_dims \(o.updateWindowDims) and inserted_window_dims \(o.insertedWindowDims) must together cover the operand's \(x.rank) axes")
    }
    let toOperand = try distinctAxes(ctx, o.scatterDimsToOperandDims, below: x.rank, what: "scatter_dims_to_operand_dims")
    guard toOperand.count == vectorSize else {
        throw ctx.invalid("scatter_dims_to_operand_dims \(o.scatterDimsToOperandDims) must have one entry per index vector component (\(vectorSize))")
    }
    let updateBatch = updates.shape.indices.filter { !windowDims.contains($0) }.map { updates.shape[$0] }
    let indexBatch = indices.shape.indices.filter { $0 != ivd }.map { indices.shape[$0] }
    guard updateBatch == indexBatch else {
        throw ctx.invalid("the updates' scatter axes \(updateBatch) must match the indices' batch axes \(indexBatch)")
    }
    let combiner = try scatterCombiner(ctx, o.updateComputationSubgraphIndex, type: x.type)
    let plan = HLOScatterPlan(operandShape: x.shape, indicesShape: indices.shape, updatesShape: updates.shape, updateWindowDims: windowDims,
                              insertedWindowDims: inserted, scatterDimsToOperandDims: toOperand, indexVectorDim: ivd)
    try ctx.setOutputShape(0, x.shape)
    ctx.requestScratch(bytes: plan.scratchCount * MemoryLayout<Int64>.stride)
    let xi = x.index, ii = indices.index, ui = updates.index, yi = try ctx.output(0).index
    let bytes = x.elementCount * (try ctx.elementSize(x, role: "operand")), wide = indices.type == .int64
    let kernel = HLOScatterKernel(plan: plan, combiner: combiner, xi: xi, ii: ii, ui: ui, yi: yi, bytes: bytes, wide: wide)
    guard let run = hloKernel(for: x.type, kernel) else { throw ctx.unsupported("operand type \(x.type)") }
    return run
}

/// STABLEHLO_SCATTER's kernel: the operand copied to the output unless they share memory,
/// then the updates combined into it.
private struct HLOScatterKernel: HLOKernelMaker {
    let plan: HLOScatterPlan, combiner: ScatterCombiner
    let xi: Int, ii: Int, ui: Int, yi: Int, bytes: Int, wide: Bool

    func make<T: HLOArithmetic>(_: T.Type) -> NodeKernel {
        { c in
            if c.raw(yi) != c.raw(xi) { c.raw(yi).copyMemory(from: c.raw(xi), byteCount: bytes) }
            let starts = c.scratch.assumingMemoryBound(to: Int64.self)
            if wide {
                plan.run(combiner, indices: c.data(ii, as: Int64.self), updates: c.data(ui, as: T.self), output: c.data(yi, as: T.self), starts: starts)
            } else {
                plan.run(combiner, indices: c.data(ii, as: Int32.self), updates: c.data(ui, as: T.self), output: c.data(yi, as: T.self), starts: starts)
            }
        }
    }
}

/// The update computation: LiteRT recognises an empty body (the update replaces the operand
/// element) and a single STABLEHLO_ADD, MULTIPLY, MAXIMUM or MINIMUM.
private func scatterCombiner(_ ctx: PrepareContext, _ body: Int32, type: DataType) throws(InterpreterError) -> ScatterCombiner {
    switch try ctx.regionBody(body, role: "update computation", type: type) {
    case .parameter(1): return .replace
    case .parameter: throw ctx.unsupported("update computation subgraph \(body) returns the operand element unchanged; LiteRT only replaces it")
    case .single(.stablehloAdd): return .add
    case .single(.stablehloMultiply): return .multiply
    case .single(.stablehloMaximum): return .maximum
    case .single(.stablehloMinimum): return .minimum
    case .single(let op):
        throw ctx.unsupported("update computation subgraph \(body) runs \(op.name); supported: none (replace), STABLEHLO_ADD, STABLEHLO_MULTIPLY, STABLEHLO_MAXIMUM, STABLEHLO_MINIMUM")
    }
}
