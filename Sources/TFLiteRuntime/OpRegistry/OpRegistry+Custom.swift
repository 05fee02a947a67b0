/// User-registered custom operators (``CustomOperator``): how they enter the op table, and the
/// glue that runs their `prepare` and kernel like any other op's.
extension Interpreter.Options {
    /// Runs `op` for the model's custom operators whose custom code is `op.name`.
    ///
    /// Nothing this runtime implements is replaced silently: a name that is also a builtin
    /// operator's (`CONV_2D`, ...) is refused, since models call builtins by opcode and a
    /// custom kernel could never stand in for one; so is one of the runtime's own custom
    /// operators (`tflite ops` lists them, e.g. `TFLite_Detection_PostProcess`) unless
    /// `replacingBuiltin` is true; so is a name already added.
    public mutating func addCustomOperator(_ op: CustomOperator, replacingBuiltin: Bool = false) throws(CustomOperatorError) {
        try registry.add(op, replacingBuiltin: replacingBuiltin)
    }

    /// Adds every operator of `ops` (see ``addCustomOperator(_:replacingBuiltin:)``); none
    /// is added when one is refused.
    public mutating func addCustomOperators(_ ops: [CustomOperator], replacingBuiltin: Bool = false) throws(CustomOperatorError) {
        var registry = self.registry
        for op in ops { try registry.add(op, replacingBuiltin: replacingBuiltin) }
        self.registry = registry
    }
}

extension OpRegistry {
    /// Every name of a builtin operator the schema knows.
    static let builtinOperatorNames: Set<String> = {
        // Unknown codes are named `BUILTIN_<n>`; the schema's codes stay far below 1024.
        Set((0..<1024).map { Schema.BuiltinOperator(rawValue: $0).name }.filter { !$0.hasPrefix("BUILTIN_") })
    }()

    mutating func add(_ op: CustomOperator, replacingBuiltin: Bool) throws(CustomOperatorError) {
        guard !op.name.isEmpty else { throw CustomOperatorError("a custom operator needs a name (its custom code)") }
        guard !op.versions.isEmpty, op.versions.lowerBound >= 1 else {
            throw CustomOperatorError("custom operator '\(op.name)': versions start at 1, got \(op.versions)")
        }
        guard !Self.builtinOperatorNames.contains(op.name) else {
            throw CustomOperatorError("'\(op.name)' is the name of a builtin operator: models call builtins by opcode, not by name, so a custom operator cannot replace one")
        }
        if let existing = registration(for: .custom(op.name)) {
            guard !existing.isUserDefined else {
                throw CustomOperatorError("custom operator '\(op.name)' is already added")
            }
            guard replacingBuiltin else {
                throw CustomOperatorError("'\(op.name)' is one of this runtime's own custom operators; add yours with replacingBuiltin: true to run it instead")
            }
        }
        var registration = OpRegistration(name: op.name, types: [], prepare: Self.prepare(op), foldable: false)
        registration.isUserDefined = true
        setCustom(registration)
    }

    /// The op glue for a user's operator. Before its `prepare` runs: the node's version is one
    /// it implements and it has no omitted output. After: every output was declared, and the
    /// declared shapes and types become the tensors' (checked against the memory limit like a
    /// builtin's). String tensors never reach it (the registration lists no types, and the
    /// executor refuses strings to ops that do not take them).
    static func prepare(_ op: CustomOperator) -> OpPrepare {
        return { (ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel in
            let executor = ctx.executor
            let node = executor.model.schema.subgraphs[executor.subgraphIndex].operators[ctx.nodeIndex]
            let version = Int(executor.model.schema.operatorCodes[Int(node.opcodeIndex)].version)
            guard op.versions.contains(version) else {
                throw ctx.unsupported("version \(version) of this operator has no kernel (the registered one runs version\(op.versions.count == 1 ? " \(op.versions.lowerBound)" : "s \(op.versions)"))")
            }
            func describe(_ t: Int) -> CustomOperator.TensorDescription {
                let info = executor.info(t)
                return CustomOperator.TensorDescription(name: executor.tensors[t].name, type: info.type, shape: info.shape,
                                                        quantization: info.quantization, constantData: info.constantData)
            }
            var outputs: [CustomOperator.TensorDescription] = []
            for (k, t) in ctx.outputIndices.enumerated() {
                guard t >= 0 else { throw ctx.invalid("output \(k) is omitted by the model; custom kernels write every output") }
                outputs.append(describe(t))
            }
            var preparation = CustomOperator.Preparation(
                node: ctx.nodeIndex, name: op.name, version: version,
                customOptions: ctx.customOptions.map { Array($0) } ?? [],
                inputs: ctx.inputIndices.map { $0 >= 0 ? describe($0) : nil }, outputs: outputs)
            let kernel: CustomOperator.Kernel
            do {
                kernel = try op.prepare(&preparation)
            } catch let error as InterpreterError {
                throw error
            } catch {
                throw ctx.invalid("\(error)")
            }

            var outputSlots: [CustomNodePlan.Slot] = []
            for (k, t) in ctx.outputIndices.enumerated() {
                guard let (shape, type) = preparation.declared[k] else {
                    throw ctx.invalid("prepare did not declare output \(k) ('\(executor.tensors[t].name)'): call setOutput(\(k), shape:) for every output")
                }
                executor.tensors[t].type = type
                try ctx.setOutputShape(k, shape)
                outputSlots.append(slot(t, executor))
            }
            let inputSlots = ctx.inputIndices.map { t in
                t >= 0 ? slot(t, executor) : CustomNodePlan.Slot(tensor: -1, type: .float32, shape: [], elementCount: 0, byteCount: 0)
            }
            ctx.kernelName = preparation.kernelName
            let plan = CustomNodePlan(name: op.name, inputs: inputSlots, outputs: outputSlots)
            let index = ctx.nodeIndex, name = ctx.opName
            return { (context: InvokeContext) throws(InterpreterError) in
                do {
                    try kernel(CustomOperator.Invocation(pointers: context.pointers, plan: plan))
                } catch let error as InterpreterError {
                    throw error
                } catch {
                    throw .invokeFailed(node: index, op: name, reason: "\(error)")
                }
            }
        }
    }

    /// Tensor `t` as the kernel sees it: shape and sizes for the views.
    private static func slot(_ t: Int, _ executor: SubgraphExecutor) -> CustomNodePlan.Slot {
        let record = executor.tensors[t]
        return CustomNodePlan.Slot(tensor: t, type: record.type, shape: record.shape,
                                   elementCount: record.elementCount, byteCount: record.byteCount ?? 0)
    }
}
