import Kernels

/// DENSIFY: expands a sparse constant (weights stored in TFLite's sparse format) into a dense
/// tensor. Its input is a constant, so the node is evaluated once, when tensors are allocated.
extension OpRegistry {
    mutating func registerDensifyOps() {
        register(.densify, types: [.float32, .float16, .int8], prepareDensify)
    }
}

extension PrepareContext {
    /// The sparsity metadata the model stores for tensor `index` of this node's subgraph,
    /// converted for the kernel; nil when the tensor is dense.
    func sparsity(ofTensor index: Int) throws(InterpreterError) -> SparsityParameters? {
        let model = executor.model
        guard let s = model.schema.subgraphs[executor.subgraphIndex].tensors[index].sparsity else { return nil }
        /// The entries of one index vector of dimension `level`.
        func values(_ v: Schema.SparseIndexVector?, _ what: String, level: Int) throws(InterpreterError) -> [Int] {
            switch v {
            case .int32Vector(let w)?: return w.values.map(Int.init)
            case .uint16Vector(let w)?: return w.values.map(Int.init)
            case .uint8Vector(let w)?:
                guard let range = w.values else { return [] }
                return model.bytes(range).map(Int.init)
            case .unknown(let tag)?: throw invalid("dimension \(level) has \(what) of unknown vector type \(tag)")
            case nil: throw invalid("sparse dimension \(level) has no \(what)")
            }
        }
        var dimensions: [SparsityParameters.Dimension] = []
        for (level, d) in s.dimMetadata.enumerated() {
            switch d.format {
            case .dense:
                dimensions.append(.dense(size: Int(d.denseSize)))
            case .sparseCsr:
                dimensions.append(.sparseCSR(segments: try values(d.arraySegments, "array_segments", level: level),
                                             indices: try values(d.arrayIndices, "array_indices", level: level)))
            }
        }
        return SparsityParameters(traversalOrder: s.traversalOrder.map(Int.init), blockMap: s.blockMap.map(Int.init),
                                  dimensions: dimensions)
    }
}

private func prepareDensify(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    guard x.isConstant, let sparsity = try ctx.sparsity(ofTensor: x.index) else {
        throw ctx.invalid("input must be a constant tensor with sparsity metadata")
    }
    let size = try ctx.elementSize(x, role: "input")
    let stored = ctx.executor.model.constantData(subgraph: ctx.executor.subgraphIndex, tensor: x.index)?.count ?? 0
    guard stored % size == 0 else { throw ctx.invalid("the \(stored) stored bytes are not a whole number of \(x.type) values") }
    guard checkedProduct(x.shape) != nil else { throw ctx.invalid("dense shape \(x.shape) overflows") }
    try ctx.setOutputShape(0, x.shape)
    let xi = x.index, yi = y.index, count = stored / size, shape = x.shape, node = ctx.nodeIndex
    return { (c) throws(InterpreterError) in
        do throws(KernelError) {
            try Densify.apply(values: c.raw(xi), valueCount: count, elementSize: size, denseShape: shape, sparsity: sparsity, output: c.raw(yi))
        } catch { throw invokeError(error, node: node, op: "DENSIFY") }
    }
}
