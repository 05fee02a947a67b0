/// Control flow over subgraphs: IF, WHILE and CALL_ONCE, and the helpers STABLEHLO_CASE and
/// STABLEHLO_COMPOSITE share with IF. Each node owns executors for the subgraphs it calls,
/// prepared with its operands' shapes; operands are copied in and results copied out, since
/// subgraphs plan their own memory.
extension OpRegistry {
    mutating func registerControlFlowOps() {
        let any: [DataType] = [.float32, .int32, .int64, .int8, .uInt8, .int16, .bool, .string]
        register(.if, types: any, outputTypes: .checkedByOp, foldable: false, prepareIf)
        register(.while, types: any, outputTypes: .checkedByOp, foldable: false, prepareWhile)
        register(.callOnce, types: [], outputTypes: .checkedByOp, foldable: false, prepareCallOnce)
    }
}

/// Runs `callee` on the operands `args` of the running subgraph and copies its results into
/// `outputs`.
func call(_ callee: SubgraphExecutor, args: [Int], outputs: [Int], from c: InvokeContext,
          node: Int, op: String) throws(InterpreterError) {
    for (k, t) in args.enumerated() { try callee.copy(from: c.executor, tensor: t, into: callee.inputs[k]) }
    do throws(InterpreterError) { try callee.invoke() } catch { throw error.stopsInvocation ? error : .invokeFailed(node: node, op: op, reason: "\(error)") }
    for (k, t) in outputs.enumerated() { try c.executor.copy(from: callee, tensor: callee.outputs[k], into: t) }
}

private func prepareIf(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    guard ctx.inputCount >= 1 else { throw ctx.invalid("IF needs a condition input") }
    guard case .ifOptions(let o)? = ctx.options else { throw ctx.invalid("missing IfOptions") }
    let condition = try ctx.input(0)
    guard condition.type == .bool, condition.elementCount == 1 else {
        throw ctx.invalid("condition must be one bool, is \(condition.type) \(condition.shape)")
    }
    let args = try ctx.inputs(1..<ctx.inputCount)
    let branches = [try ctx.subgraph(o.thenSubgraphIndex), try ctx.subgraph(o.elseSubgraphIndex)]
    try ctx.bindCallees(branches, args: args)
    let conditionIndex = condition.index, argIndices = args.map(\.index), outputIndices = ctx.outputIndices
    let node = ctx.nodeIndex
    return { (c) throws(InterpreterError) in
        let branch = branches[c.data(conditionIndex, as: UInt8.self).pointee != 0 ? 0 : 1]
        try call(branch, args: argIndices, outputs: outputIndices, from: c, node: node, op: "IF")
    }
}

private func prepareWhile(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    guard case .whileOptions(let o)? = ctx.options else { throw ctx.invalid("missing WhileOptions") }
    guard ctx.inputCount == ctx.outputCount else { throw ctx.invalid("WHILE needs as many outputs as inputs") }
    let vars = try ctx.inputs(0..<ctx.inputCount)
    let condition = try ctx.subgraph(o.condSubgraphIndex), body = try ctx.subgraph(o.bodySubgraphIndex)
    for g in [condition, body] {
        try g.bindInputs(types: vars.map(\.type), shapes: vars.map(\.shape), node: ctx)
        try g.allocate()
    }
    guard condition.outputs.count == 1, condition.tensors[condition.outputs[0]].type == .bool else {
        throw ctx.invalid("condition subgraph \(condition.subgraphIndex) must return one bool")
    }
    guard body.outputs.count == vars.count else {
        throw ctx.invalid("body subgraph \(body.subgraphIndex) returns \(body.outputs.count) values for \(vars.count) loop variables")
    }
    // Loop variables are copied byte for byte between the node and its subgraphs, so each
    // keeps one type throughout.
    for (k, v) in vars.enumerated() {
        let returned = body.tensors[body.outputs[k]].type, declared = try ctx.output(k).type
        guard returned == v.type, declared == v.type else {
            throw ctx.invalid("loop variable \(k) is \(v.type), but the body returns \(returned) and output \(k) is declared \(declared)")
        }
    }
    // Loop variables keep their shapes when the body returns them unchanged; otherwise they are
    // dynamic and both subgraphs are prepared again for each iteration's shapes.
    let stable = vars.indices.allSatisfy { body.tensors[body.outputs[$0]].shape == vars[$0].shape && !body.tensors[body.outputs[$0]].isDynamic }
    for k in vars.indices {
        if stable { try ctx.setOutputShape(k, vars[k].shape) } else { try ctx.setOutputDynamic(k) }
    }
    let inputs = vars.map(\.index), outputs = ctx.outputIndices, types = vars.map(\.type), node = ctx.nodeIndex
    let context = ctx, limit = ctx.executor.environment.maxLoopIterations
    return { (c) throws(InterpreterError) in
        let state = c.executor
        let control = state.environment.control
        for (k, t) in inputs.enumerated() { try state.copy(from: state, tensor: t, into: outputs[k]) }
        func run(_ g: SubgraphExecutor) throws(InterpreterError) {
            if !stable {
                try g.bindInputs(types: types, shapes: outputs.map { state.tensors[$0].shape }, node: context)
                try g.allocate()
            }
            for (k, t) in outputs.enumerated() { try g.copy(from: state, tensor: t, into: g.inputs[k]) }
            do throws(InterpreterError) { try g.invoke() } catch { throw error.stopsInvocation ? error : .invokeFailed(node: node, op: "WHILE", reason: "\(error)") }
        }
        var iterations = 0
        while true {
            try control.check()
            try run(condition)
            guard condition.pointers[condition.outputs[0]].load(as: UInt8.self) != 0 else { break }
            iterations += 1
            guard iterations <= limit else {
                throw .invokeFailed(node: node, op: "WHILE",
                                    reason: "the loop ran more than \(limit) iterations (Interpreter.Options.maxLoopIterations)")
            }
            try run(body)
            for (k, t) in outputs.enumerated() { try state.copy(from: body, tensor: body.outputs[k], into: t) }
        }
    }
}

private func prepareCallOnce(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    guard case .callOnceOptions(let o)? = ctx.options else { throw ctx.invalid("missing CallOnceOptions") }
    let initializer = try ctx.subgraph(o.initSubgraphIndex)
    guard initializer.inputs.isEmpty, initializer.outputs.isEmpty else {
        throw ctx.invalid("CALL_ONCE subgraph \(initializer.subgraphIndex) must have no inputs or outputs")
    }
    try initializer.allocate()
    let environment = ctx.executor.environment, index = initializer.subgraphIndex, node = ctx.nodeIndex
    return { (_) throws(InterpreterError) in
        guard !environment.initializedSubgraphs.contains(index) else { return }
        do throws(InterpreterError) { try initializer.invoke() } catch { throw error.stopsInvocation ? error : .invokeFailed(node: node, op: "CALL_ONCE", reason: "\(error)") }
        environment.initializedSubgraphs.insert(index)
    }
}
