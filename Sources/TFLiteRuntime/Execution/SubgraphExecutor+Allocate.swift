extension SubgraphExecutor {
    /// Prepares every node in order (inferring shapes from the current input shapes), folds
    /// nodes whose inputs are all constant, plans the arena from tensor lifetimes and binds
    /// every tensor's data pointer. After it succeeds `invoke()` has nothing left to check.
    func allocate() throws(InterpreterError) {
        isAllocated = false
        steps = []
        let graph = model.schema.subgraphs[subgraphIndex]
        let graphInputs = Set(inputs)
        for t in tensors.indices where !graphInputs.contains(t) && !tensors[t].isWeight {
            tensors[t].shape = tensors[t].modelShape
            tensors[t].isConstant = false
            if !tensors[t].isVariable { tensors[t].storage = .none }
        }
        for t in inputs { pointers[t] = pointerForPlanning(t) }

        var kept: [(node: Int, kernel: NodeKernel, inputs: [Int], outputs: [Int])] = []
        var scratchBytes = 0
        for (n, op) in graph.operators.enumerated() {
            let kind = model.operatorKind(ofCode: Int(op.opcodeIndex))
            guard let registration = registry.registration(for: kind) else {
                throw .unsupportedOperator(node: n, op: kind.name, reason: "this runtime has no kernel for it (see 'tflite ops')")
            }
            let nodeInputs = op.inputs.map(Int.init)
            let nodeOutputs = op.outputs.map(Int.init)
            var context = PrepareContext(
                nodeIndex: n, opName: kind.name, options: op.builtinOptions,
                customOptions: op.customOptions.map { model.bytes($0) },
                inputIndices: nodeInputs, outputIndices: nodeOutputs, executor: self)
            let kernel = try registration.prepare(&context)
            for t in nodeOutputs where t >= 0 && tensors[t].byteCount == nil {
                throw .invalidNode(node: n, op: kind.name, reason: "output '\(tensors[t].name)' has type \(tensors[t].type), which has no fixed size")
            }
            let present = nodeInputs.filter { $0 >= 0 }
            if registration.foldable, !present.isEmpty, present.allSatisfy({ tensors[$0].isConstant }) {
                try fold(kernel, outputs: nodeOutputs, scratchBytes: context.scratchBytes)
            } else {
                scratchBytes = max(scratchBytes, context.scratchBytes)
                kept.append((n, kernel, present, nodeOutputs.filter { $0 >= 0 }))
            }
        }
        try plan(kept.map { ($0.inputs, $0.outputs) })
        scratch = scratchBytes > 0 ? AlignedBuffer(byteCount: scratchBytes) : nil
        steps = kept.map { ($0.node, $0.kernel) }
        isAllocated = true
    }

    /// Runs a node whose inputs are all constant once, now, into memory of its own, and
    /// marks its outputs constant (e.g. DEQUANTIZE of float16 weights, DENSIFY).
    private func fold(_ kernel: @escaping NodeKernel, outputs: [Int], scratchBytes: Int) throws(InterpreterError) {
        for t in outputs where t >= 0 {
            let buffer = AlignedBuffer(byteCount: tensors[t].byteCount ?? 0)
            tensors[t].storage = .owned(buffer)
            tensors[t].isConstant = true
            pointers[t] = buffer.pointer
        }
        let temporaryScratch = AlignedBuffer(byteCount: scratchBytes)
        let context = InvokeContext(pointers: pointers, scratch: temporaryScratch.pointer, threads: threads)
        try kernel(context)
    }

    /// Assigns arena offsets from lifetimes: graph inputs and outputs live for the whole run
    /// (callers read them around `invoke()`), other tensors from their producer to their last
    /// consumer. Tensors read but never written (variables, state) get zeroed memory of their own.
    private func plan(_ nodes: [(inputs: [Int], outputs: [Int])]) throws(InterpreterError) {
        let end = nodes.count
        var first = [Int: Int]()
        var last = [Int: Int]()
        for t in inputs where !tensors[t].isConstant { first[t] = 0; last[t] = end }
        for (step, node) in nodes.enumerated() {
            for t in node.outputs where !tensors[t].isConstant && !tensors[t].isVariable {
                if first[t] == nil { first[t] = step }
                last[t] = max(last[t] ?? step, step)
            }
            for t in node.inputs where !tensors[t].isConstant {
                if first[t] == nil {
                    try giveOwnStorage(t)
                    continue
                }
                last[t] = max(last[t] ?? step, step)
            }
        }
        for t in outputs where first[t] != nil { last[t] = end }

        let planned = first.keys.sorted()
        var requests: [BufferRequest] = []
        requests.reserveCapacity(planned.count)
        for t in planned {
            guard let size = tensors[t].byteCount else {
                throw .invalidShape(tensor: tensors[t].name, reason: "type \(tensors[t].type) has no fixed size")
            }
            requests.append(BufferRequest(size: size, firstUse: first[t]!, lastUse: last[t]!))
        }
        let memoryPlan = GreedyMemoryPlanner().plan(requests)
        guard memoryPlan.arenaSize <= memoryLimit else {
            throw .memoryLimitExceeded(requested: memoryPlan.arenaSize, limit: memoryLimit)
        }
        arenaSize = memoryPlan.arenaSize
        plannedTensorBytes = requests.reduce(0) { $0 + $1.size }
        let newArena = AlignedBuffer(byteCount: memoryPlan.arenaSize)
        // Inputs keep their values across a re-allocation (a resize of another input, say).
        for (i, t) in planned.enumerated() where inputs.contains(t) {
            if case .arena(let old) = tensors[t].storage, let arena, let size = tensors[t].byteCount,
               old + size <= arena.byteCount {
                newArena.pointer.advanced(by: memoryPlan.offsets[i]).copyMemory(from: arena.pointer + old, byteCount: size)
            }
        }
        arena = newArena
        for (i, t) in planned.enumerated() { tensors[t].storage = .arena(offset: memoryPlan.offsets[i]) }
        for t in tensors.indices { pointers[t] = pointerForPlanning(t) }
    }

    /// Zeroed memory that outlives invocations, for variables and never-written tensors.
    private func giveOwnStorage(_ t: Int) throws(InterpreterError) {
        guard let size = tensors[t].byteCount, size <= memoryLimit else {
            throw .memoryLimitExceeded(requested: tensors[t].byteCount ?? Int.max, limit: memoryLimit)
        }
        if case .owned(let b) = tensors[t].storage, b.byteCount == size { return }
        let buffer = AlignedBuffer(byteCount: size)
        tensors[t].storage = .owned(buffer)
        pointers[t] = buffer.pointer
    }

    /// Runs the prepared kernels in order.
    func invoke() throws(InterpreterError) {
        guard isAllocated else { throw .tensorsNotAllocated }
        let context = self.invokeContext
        for step in steps {
            try step.kernel(context)
        }
    }
}
