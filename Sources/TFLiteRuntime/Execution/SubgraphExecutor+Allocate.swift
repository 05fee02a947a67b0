/// One entry of the execution plan.
struct Step {
    let node: Int
    /// The prepared kernel; nil for a node that reads a dynamic tensor, which is prepared
    /// again at every invocation once its input shapes are known.
    var kernel: NodeKernel?
}

extension SubgraphExecutor {
    /// Prepares every node in order (inferring shapes from the current input shapes), folds
    /// nodes whose inputs are all constant, plans the arena from tensor lifetimes and binds
    /// every tensor's data pointer. After it succeeds `invoke()` has nothing left to check,
    /// except for nodes downstream of a value-dependent shape.
    func allocate() throws(InterpreterError) {
        isAllocated = false
        defer { releaseStaging() }
        if !isDataflowChecked {
            try checkDataflow()
            isDataflowChecked = true
        }
        steps = []
        kernelNames = [:]
        nodeFlops = [:]
        let graph = model.schema.subgraphs[subgraphIndex]
        let graphInputs = Set(inputs)
        for t in tensors.indices where !graphInputs.contains(t) && !tensors[t].isWeight {
            tensors[t].shape = tensors[t].modelShape
            tensors[t].isConstant = false
            tensors[t].isDynamic = false
            tensors[t].stringByteCount = nil
            if !tensors[t].isVariable { tensors[t].storage = .none }
        }
        try prepareStringInputs()
        for t in inputs { pointers[t] = pointerForPlanning(t) }

        var kept: [(step: Step, inputs: [Int], outputs: [Int])] = []
        var scratchBytes = 0
        fusion = FusionPass.plan(for: self)
        // Every float16 filter is widened into the same memory, sized for the largest.
        reserveStaging(byteCount: fusion.halfPrecisionFilters.values.map { 2 * (tensors[$0].byteCount ?? 0) }.max() ?? 0)
        for position in graph.operators.indices {
            guard let n = fusion.node(at: position, in: self) else { continue }
            let nodeInputs = inputIndices(ofNode: n), nodeOutputs = outputIndices(ofNode: n)
            // What a node took over may make it read more: that must stay live through it.
            let present = nodeInputs.filter { $0 >= 0 } + fusion.extraInputs(ofNode: n)
            let outputs = nodeOutputs.filter { $0 >= 0 }
            // A string's size depends on its contents: its writer sizes it at run time.
            for t in outputs where tensors[t].type == .string { tensors[t].isDynamic = true }
            if present.contains(where: { tensors[$0].isDynamic }) {
                // Shapes are unknown until run time: prepare this node then. What needs no
                // shape is checked now.
                _ = try registration(ofNode: n)
                for t in outputs { tensors[t].isDynamic = true }
                kept.append((Step(node: n, kernel: nil), present, outputs))
                continue
            }
            let (kernel, registration, scratch) = try prepare(node: n)
            for t in outputs where !tensors[t].isDynamic && tensors[t].byteCount == nil {
                throw .invalidNode(node: n, op: registration.name, reason: "output '\(tensors[t].name)' has type \(tensors[t].type), which has no fixed size")
            }
            if registration.foldable, !present.isEmpty, present.allSatisfy({ tensors[$0].isConstant }),
               !outputs.contains(where: { tensors[$0].isDynamic }) {
                try fold(kernel, outputs: outputs, scratchBytes: scratch)
            } else {
                scratchBytes = max(scratchBytes, scratch)
                kept.append((Step(node: n, kernel: kernel), present, outputs))
            }
        }
        try plan(kept.map { ($0.inputs, $0.outputs) })
        resetVariables()
        guard arenaSize + scratchBytes <= memoryLimit else {
            throw .memoryLimitExceeded(requested: arenaSize + scratchBytes, limit: memoryLimit)
        }
        scratch = scratchBytes > 0 ? AlignedBuffer(byteCount: scratchBytes) : nil
        steps = kept.map(\.step)
        isAllocated = true
    }

    /// Runs node `n`'s prepare step with the current shapes and the tensors and fusions the
    /// plan (``fusion``) gives it.
    func prepare(node n: Int) throws(InterpreterError) -> (NodeKernel, OpRegistration, scratchBytes: Int) {
        let op = model.schema.subgraphs[subgraphIndex].operators[n]
        let (registration, kind) = try registration(ofNode: n)
        var context = PrepareContext(
            nodeIndex: n, opName: kind.name, options: op.builtinOptions,
            customOptions: op.customOptions.map { model.bytes($0) },
            inputIndices: inputIndices(ofNode: n), outputIndices: outputIndices(ofNode: n), executor: self)
        context.intermediateIndices = op.intermediates.map(Int.init)
        context.options2 = op.builtinOptions2
        context.fusions = fusion.fusions(ofNode: n)
        let kernel: NodeKernel
        if registration.movesStrings, let strings = stringOperands(context) {
            kernel = try prepareMovingStrings(registration, &context, strings: strings)
        } else {
            try registration.outputTypes.check(context)
            kernel = try registration.prepare(&context)
        }
        // Scratch counts against the limit like tensors do: a hostile dilation or window can
        // ask for far more than any tensor.
        guard context.scratchBytes <= memoryLimit else {
            throw .memoryLimitExceeded(requested: context.scratchBytes, limit: memoryLimit)
        }
        kernelNames[n] = context.resolvedKernelName
        nodeFlops[n] = context.flops
        return (kernel, registration, context.scratchBytes)
    }

    /// Node `n`'s input tensors (-1 for omitted ones) as the plan has them.
    func inputIndices(ofNode n: Int) -> [Int] {
        fusion.inputs(ofNode: n, declared: model.schema.subgraphs[subgraphIndex].operators[n].inputs.map(Int.init))
    }

    /// Node `n`'s output tensors (-1 for omitted ones) as the plan has them.
    func outputIndices(ofNode n: Int) -> [Int] {
        fusion.outputs(ofNode: n, declared: model.schema.subgraphs[subgraphIndex].operators[n].outputs.map(Int.init))
    }

    /// Node `n`'s registration, if the runtime has one and it takes the node's tensors' types
    /// as far as prepare does not check them: strings are not elements of a fixed size, so
    /// only kernels written for them may see one.
    func registration(ofNode n: Int) throws(InterpreterError) -> (OpRegistration, Model.OperatorKind) {
        let op = model.schema.subgraphs[subgraphIndex].operators[n]
        let kind = model.operatorKind(ofCode: Int(op.opcodeIndex))
        guard let registration = registry.registration(for: kind) else {
            throw .unsupportedOperator(node: n, op: kind.name, reason: "this runtime has no kernel for it (see 'tflite ops')")
        }
        if !registration.types.contains(.string),
           let t = (op.inputs + op.outputs).first(where: { $0 >= 0 && tensors[Int($0)].type == .string }) {
            throw .unsupportedOperator(node: n, op: kind.name, reason: "tensor '\(tensors[Int(t)].name)' is a string tensor, which this op does not take")
        }
        return (registration, kind)
    }

    /// Runs a node whose inputs are all constant once, now, into memory of its own, and
    /// marks its outputs constant (e.g. DEQUANTIZE of float16 weights, DENSIFY).
    private func fold(_ kernel: @escaping NodeKernel, outputs: [Int], scratchBytes: Int) throws(InterpreterError) {
        for t in outputs {
            let buffer = AlignedBuffer(byteCount: tensors[t].byteCount ?? 0)
            tensors[t].storage = .owned(buffer)
            tensors[t].isConstant = true
            pointers[t] = buffer.pointer
        }
        let temporaryScratch = AlignedBuffer(byteCount: scratchBytes)
        let context = InvokeContext(pointers: pointers, scratch: temporaryScratch.pointer, threads: threads, executor: self)
        try kernel(context)
    }

    /// Assigns arena offsets from lifetimes: graph inputs and outputs live for the whole run
    /// (callers read them around `invoke()`), other tensors from their producer to their last
    /// consumer. Tensors read but never written (variables, state) get zeroed memory of their
    /// own, and so do dynamic tensors, which are sized at run time.
    private func plan(_ nodes: [(inputs: [Int], outputs: [Int])]) throws(InterpreterError) {
        let end = nodes.count
        var first = [Int: Int]()
        var last = [Int: Int]()
        func planned(_ t: Int) -> Bool { !tensors[t].isConstant && !tensors[t].isDynamic && !tensors[t].isVariable }
        for t in inputs where planned(t) { first[t] = 0; last[t] = end }
        for (step, node) in nodes.enumerated() {
            for t in node.outputs {
                if tensors[t].isDynamic { try giveOwnStorage(t, bytes: 0); continue }
                // A variable keeps memory of its own across invocations.
                if tensors[t].isVariable { try giveOwnStorage(t, bytes: tensors[t].byteCount); continue }
                guard planned(t) else { continue }
                if first[t] == nil { first[t] = step }
                last[t] = max(last[t] ?? step, step)
            }
            for t in node.inputs where !tensors[t].isConstant && !tensors[t].isDynamic {
                if first[t] == nil {
                    try giveOwnStorage(t, bytes: tensors[t].byteCount)
                    continue
                }
                last[t] = max(last[t] ?? step, step)
            }
        }
        for t in outputs where first[t] != nil { last[t] = end }

        let placed = first.keys.sorted()
        var requests: [BufferRequest] = []
        requests.reserveCapacity(placed.count)
        for t in placed {
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
        for (i, t) in placed.enumerated() where inputs.contains(t) {
            if case .arena(let old) = tensors[t].storage, let arena, let size = tensors[t].byteCount,
               old + size <= arena.byteCount {
                newArena.pointer.advanced(by: memoryPlan.offsets[i]).copyMemory(from: arena.pointer + old, byteCount: size)
            }
        }
        arena = newArena
        for (i, t) in placed.enumerated() { tensors[t].storage = .arena(offset: memoryPlan.offsets[i]) }
        for t in tensors.indices { pointers[t] = pointerForPlanning(t) }
    }

    /// Zeroed memory that outlives invocations, for variables, never-written tensors and
    /// dynamic tensors (which start empty and grow at run time).
    /// Gives every variable tensor its starting value, as LiteRT does on each allocation: an
    /// int8 variable holds its zero point (real zero; the integer LSTM's output state), any
    /// other zero bytes.
    private func resetVariables() {
        for t in tensors.indices where tensors[t].isVariable {
            guard case .owned(let buffer) = tensors[t].storage, let bytes = tensors[t].byteCount else { continue }
            let zeroPoint = tensors[t].type == .int8 ? tensors[t].quantization?.zeroPoint ?? 0 : 0
            buffer.pointer.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: zeroPoint), count: bytes)
        }
    }

    private func giveOwnStorage(_ t: Int, bytes: Int?) throws(InterpreterError) {
        guard let size = bytes, size <= memoryLimit else {
            throw .memoryLimitExceeded(requested: bytes ?? Int.max, limit: memoryLimit)
        }
        if case .owned(let b) = tensors[t].storage, b.byteCount >= size { return }
        let buffer = AlignedBuffer(byteCount: size)
        tensors[t].storage = .owned(buffer)
        pointers[t] = buffer.pointer
    }

    /// Sets a dynamic tensor's shape at run time, growing its memory when needed.
    func resizeDynamic(_ t: Int, to shape: [Int]) throws(InterpreterError) -> UnsafeMutableRawPointer {
        guard tensors[t].isDynamic else {
            throw .invalidShape(tensor: tensors[t].name, reason: "resized at run time but not declared dynamic")
        }
        guard tensors[t].type != .string else {
            throw .invalidShape(tensor: tensors[t].name, reason: "a string tensor is sized by the strings written to it, not by a resize")
        }
        guard shape.allSatisfy({ $0 >= 0 }) else {
            throw .invalidShape(tensor: tensors[t].name, reason: "negative dimension in \(shape)")
        }
        try assignShape(t, shape)
        try giveOwnStorage(t, bytes: tensors[t].byteCount)
        return pointers[t]
    }

    /// Runs the prepared kernels in order; nodes downstream of a dynamic shape are prepared
    /// first, with the shapes this invocation produced.
    func invoke() throws(InterpreterError) {
        guard isAllocated else { throw .tensorsNotAllocated }
        let context = self.invokeContext
        let control = environment.control
        for step in steps {
            try control.check()
            if let kernel = step.kernel {
                try kernel(context)
            } else {
                try runDeferred(step.node, context)
            }
        }
    }

    /// Prepares and runs a node whose inputs were shaped at run time. Its outputs get memory
    /// of their own sized to the shapes its prepare step declares.
    func runDeferred(_ node: Int, _ context: InvokeContext) throws(InterpreterError) {
        let outputs = outputIndices(ofNode: node).filter { $0 >= 0 }
        for t in outputs {
            tensors[t].shape = tensors[t].modelShape
            tensors[t].stringByteCount = nil
        }
        let (kernel, _, scratchBytes) = try prepare(node: node)
        releaseStaging()
        for t in outputs where tensors[t].byteCount != nil {
            _ = try resizeDynamic(t, to: tensors[t].shape)
        }
        if scratchBytes > (scratch?.byteCount ?? 0) {
            scratch = AlignedBuffer(byteCount: scratchBytes)
            try kernel(invokeContext)
        } else {
            try kernel(context)
        }
    }
}
