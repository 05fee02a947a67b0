extension Interpreter {
    /// The kernel each node of the main subgraph runs, by node index, once
    /// `allocateTensors()` has prepared them: an optimised kernel with its instruction-set
    /// variant (`conv2d.i8.quads-in-place/avx512vnni`) or a reference one
    /// (`conv2d.i8.reference`, `mean.f32.reference`). Nil for a node that runs no kernel of its
    /// own (folded into a neighbour by the fusion pass), and for a node whose input shapes
    /// depend on values until the first `invoke()` prepares it.
    public var nodeKernelNames: [String?] {
        (0..<main.model.schema.subgraphs[main.subgraphIndex].operators.count).map { main.kernelNames[$0] }
    }
}
