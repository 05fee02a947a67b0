extension SubgraphExecutor {
    /// A fresh executor for another subgraph of the same model (control flow), sharing this
    /// one's threads and variables.
    func child(_ subgraph: Int) -> SubgraphExecutor {
        SubgraphExecutor(environment: environment, subgraph: subgraph)
    }

    /// Shapes this subgraph's inputs as given (control flow passes whatever its operands
    /// hold), checking count and types. Takes effect at the next `allocate()`.
    func bindInputs(types: [DataType], shapes: [[Int]], node: PrepareContext) throws(InterpreterError) {
        guard types.count == inputs.count else {
            throw node.invalid("subgraph \(subgraphIndex) takes \(inputs.count) inputs, given \(types.count)")
        }
        for (k, t) in inputs.enumerated() {
            guard tensors[t].type == types[k] else {
                throw node.invalid("subgraph \(subgraphIndex) input \(k) has type \(tensors[t].type), given \(types[k])")
            }
            tensors[t].shape = shapes[k]
        }
    }

    /// Copies tensor `from` of `source` into tensor `to` of this executor; when `to` is
    /// dynamic it takes the source's shape first.
    func copy(from source: SubgraphExecutor, tensor from: Int, into to: Int) throws(InterpreterError) {
        let shape = source.tensors[from].shape
        if tensors[to].type == .string {
            let view = try source.strings(from)
            let packed = [UInt8](UnsafeRawBufferPointer(start: view.base, count: source.tensors[from].stringByteCount ?? 0))
            try storeStrings(packed, shape: shape, in: to)
            return
        }
        if tensors[to].isDynamic || tensors[to].shape != shape {
            guard tensors[to].isDynamic else {
                throw .invalidShape(tensor: tensors[to].name, reason: "receives shape \(shape), planned for \(tensors[to].shape)")
            }
            _ = try resizeDynamic(to, to: shape)
        }
        let bytes = tensors[to].byteCount ?? 0
        if bytes > 0 && source.pointers[from] != pointers[to] {
            pointers[to].copyMemory(from: source.pointers[from], byteCount: bytes)
        }
    }
}
