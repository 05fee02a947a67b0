/// The body of a StableHLO REDUCE_WINDOW or SCATTER: a subgraph combining two scalars. LiteRT
/// never runs such a body; its kernels look at the body's single operator and apply the
/// matching arithmetic themselves. This does the same, and also requires that operator to
/// combine the body's two parameters into its result (LiteRT looks at the opcode alone, so a
/// body adding a constant would silently be run as a plain sum).
enum RegionBody: Equatable {
    /// A body with no operators, returning its parameter `k` (SCATTER's plain update).
    case parameter(Int)
    /// A body of one builtin operator over both parameters.
    case single(Schema.BuiltinOperator)
}

extension PrepareContext {
    /// Reads region subgraph `index`, whose two parameters and result must all be scalars (or
    /// one-element tensors) of type `type`.
    func regionBody(_ index: Int32, role: String, type: DataType) throws(InterpreterError) -> RegionBody {
        let schema = executor.model.schema
        guard index >= 0, Int(index) < schema.subgraphs.count else {
            throw invalid("\(role) subgraph index \(index) is out of range (the model has \(schema.subgraphs.count) subgraphs)")
        }
        let body = schema.subgraphs[Int(index)]
        guard body.inputs.count == 2, body.outputs.count == 1, body.inputs[0] != body.inputs[1] else {
            throw unsupported("\(role) subgraph \(index) takes \(body.inputs.count) values and returns \(body.outputs.count); a body takes 2 distinct values and returns 1")
        }
        for t in body.inputs + body.outputs {
            let tensor = body.tensors[Int(t)]
            guard DataType(tensor.type) == type, tensor.shape.reduce(1, { $0 * Int($1) }) == 1 else {
                throw unsupported("\(role) subgraph \(index) works on \(DataType(tensor.type)) \(tensor.shape), not one \(type) value")
            }
        }
        if body.operators.isEmpty {
            guard let k = body.inputs.firstIndex(of: body.outputs[0]) else {
                throw unsupported("\(role) subgraph \(index) has no operators and does not return a parameter")
            }
            return .parameter(k)
        }
        guard body.operators.count == 1 else {
            throw unsupported("\(role) subgraph \(index) has \(body.operators.count) operators; only a single arithmetic operator is supported (as in LiteRT)")
        }
        let op = body.operators[0]
        guard case .builtin(let code) = executor.model.operatorKind(ofCode: Int(op.opcodeIndex)) else {
            throw unsupported("\(role) subgraph \(index) runs a custom operator")
        }
        guard op.outputs == body.outputs, op.inputs.count == 2, Set(op.inputs) == Set(body.inputs) else {
            throw unsupported("\(role) subgraph \(index): its \(code.name) must combine the body's two parameters into its result")
        }
        let activation: Schema.ActivationFunctionType
        switch op.builtinOptions {
        case .addOptions(let o)?: activation = o.fusedActivationFunction
        case .mulOptions(let o)?: activation = o.fusedActivationFunction
        default: activation = .none
        }
        guard activation == .none else { throw unsupported("\(role) subgraph \(index): its \(code.name) has a fused activation") }
        return .single(code)
    }
}

extension PrepareContext {
    func subgraph(_ index: Int32) throws(InterpreterError) -> SubgraphExecutor {
        guard index >= 0, Int(index) < executor.model.schema.subgraphs.count else {
            throw invalid("subgraph index \(index) out of range")
        }
        return executor.child(Int(index))
    }

    /// Prepares `callees` for `args` and declares the node's outputs: each callee must return
    /// one value per output, of the output's declared type. An output is static when every
    /// callee gives it the same planned shape, dynamic otherwise.
    func bindCallees(_ callees: [SubgraphExecutor], args: [TensorInfo]) throws(InterpreterError) {
        for g in callees {
            try g.bindInputs(types: args.map(\.type), shapes: args.map(\.shape), node: self)
            try g.allocate()
            guard g.outputs.count == outputCount else {
                throw invalid("subgraph \(g.subgraphIndex) returns \(g.outputs.count) values, \(opName) has \(outputCount) outputs")
            }
            for k in 0..<outputCount {
                let returned = g.tensors[g.outputs[k]].type, declared = try output(k).type
                guard returned == declared else {
                    throw invalid("subgraph \(g.subgraphIndex) returns \(returned) as value \(k), output \(k) is declared \(declared)")
                }
            }
        }
        for k in 0..<outputCount {
            let results = callees.map { $0.tensors[$0.outputs[k]] }
            if results.allSatisfy({ !$0.isDynamic && $0.shape == results[0].shape }) {
                try setOutputShape(k, results[0].shape)
            } else {
                try setOutputDynamic(k)
            }
        }
    }
}
