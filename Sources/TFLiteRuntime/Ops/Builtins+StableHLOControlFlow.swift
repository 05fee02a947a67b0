import FlatBuffers

/// STABLEHLO_CASE (one of several branch subgraphs, chosen by an int32 index) and
/// STABLEHLO_COMPOSITE (its decomposition subgraph, called with the node's operands). As for
/// IF, each node owns executors for its subgraphs, prepared with the operands' shapes;
/// operands are copied in and results copied out.
extension OpRegistry {
    mutating func registerStableHLOControlFlowOps() {
        let any: [DataType] = [.float32, .int32, .int64, .int8, .uInt8, .int16, .bool]
        register(.stablehloCase, types: any, outputTypes: .checkedByOp, foldable: false, prepareHLOCase)
        register(.stablehloComposite, types: any, outputTypes: .checkedByOp, foldable: false, prepareHLOComposite)
    }
}

private func prepareHLOCase(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    guard ctx.inputCount >= 1 else { throw ctx.invalid("STABLEHLO_CASE needs an index input") }
    guard case .stablehloCaseOptions(let o)? = ctx.options2 else { throw ctx.invalid("missing StablehloCaseOptions") }
    guard !o.branchSubgraphIndices.isEmpty else { throw ctx.invalid("STABLEHLO_CASE has no branches") }
    let index = try ctx.input(0)
    guard index.type == .int32, index.elementCount == 1 else {
        throw ctx.invalid("the branch index must be one int32, is \(index.type) \(index.shape)")
    }
    let args = try ctx.inputs(1..<ctx.inputCount)
    var branches: [SubgraphExecutor] = []
    for b in o.branchSubgraphIndices { branches.append(try ctx.subgraph(b)) }
    try ctx.bindCallees(branches, args: args)
    let indexTensor = index.index, argIndices = args.map(\.index), outputs = ctx.outputIndices, node = ctx.nodeIndex
    return { (c) throws(InterpreterError) in
        // An index outside the branches selects the last one, as StableHLO specifies.
        let k = Int(c.data(indexTensor, as: Int32.self).pointee)
        let branch = branches[k >= 0 && k < branches.count ? k : branches.count - 1]
        try call(branch, args: argIndices, outputs: outputs, from: c, node: node, op: "STABLEHLO_CASE")
    }
}

private func prepareHLOComposite(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    // LiteRT refuses a composite without operands.
    guard ctx.inputCount >= 1 else { throw ctx.invalid("STABLEHLO_COMPOSITE needs at least one input") }
    guard case .stableHLOCompositeOptions(let o)? = ctx.options2 else { throw ctx.invalid("missing StableHLOCompositeOptions") }
    if o.name == "odml.scaled_dot_product_attention", ctx.kernelChoice.optimizedKernels != nil, let native = try nativeAttention(&ctx, o) {
        return native
    }
    let args = try ctx.inputs(0..<ctx.inputCount)
    let decomposition = try ctx.subgraph(o.decompositionSubgraphIndex)
    try ctx.bindCallees([decomposition], args: args)
    let argIndices = args.map(\.index), outputs = ctx.outputIndices, node = ctx.nodeIndex
    return { (c) throws(InterpreterError) in
        try call(decomposition, args: argIndices, outputs: outputs, from: c, node: node, op: "STABLEHLO_COMPOSITE")
    }
}

/// ai-edge-torch's attention composite run by the attention kernel rather than its
/// decomposition, which transposes, repeats and scales copies of the whole KV cache at every
/// step (about 60% of a decode step). The composite's operands are the custom op's: query,
/// key, value and mask, 4-D float32, with the `scale` attribute. Anything else (another
/// layout, more operands) takes the decomposition; the reference mode always does.
private func nativeAttention(_ ctx: inout PrepareContext, _ o: Schema.StableHLOCompositeOptions) throws(InterpreterError) -> NodeKernel? {
    guard ctx.inputCount == 4, ctx.outputIndices.count == 1 else { return nil }
    for i in 0..<4 {
        let t = try ctx.input(i)
        guard t.type == .float32, t.rank == 4 else { return nil }
    }
    guard try ctx.output(0).type == .float32 else { return nil }
    var scale: Float = 0
    if let range = o.compositeAttributes, o.compositeAttributesFormat == .flexbuffers {
        let bytes = ctx.executor.model.bytes(range)
        do {
            if let v = try FlexBuffer.root(of: bytes).map["scale"], !v.isNull { scale = try v.asFloat }
        } catch { throw ctx.invalid("bad composite attributes: \(error)") }
    }
    let q = try ctx.input(0), k = try ctx.input(1)
    guard k.shape[0] == q.shape[0], k.shape[3] == q.shape[3], k.shape[2] > 0, q.shape[2] % k.shape[2] == 0 else { return nil }
    return try prepareAttention(&ctx, scale: scale)
}
