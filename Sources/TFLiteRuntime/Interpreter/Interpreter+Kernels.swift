extension Interpreter {
    /// What a node of the main subgraph runs (``Interpreter/nodeKernels``).
    public enum NodeKernel: Hashable, Sendable {
        /// The kernel, by name: an optimised one with its instruction-set variant
        /// (`conv2d.i8.quads-in-place/avx512vnni`) or a reference one (`conv2d.i8.reference`,
        /// `mean.f32.reference`).
        case named(String)
        /// None of its own: the fusion pass folded the node into a neighbour.
        case fused
        /// Not known yet: the node's input shapes depend on values, so it is prepared when it
        /// runs (named once an `invoke()` has run it).
        case preparedWhenRun
        /// Not known: `allocateTensors()` has not prepared the subgraph.
        case unallocated

        /// The kernel's name, for ``named(_:)``.
        public var name: String? {
            guard case .named(let name) = self else { return nil }
            return name
        }
    }

    /// The kernel each node of the main subgraph runs, by node index (what `tflite inspect`
    /// and `tflite bench --profile-nodes` print).
    public var nodeKernels: [NodeKernel] {
        let count = main.model.schema.subgraphs[main.subgraphIndex].operators.count
        guard main.isAllocated else { return Array(repeating: .unallocated, count: count) }
        let preparedWhenRun = Set(main.steps.filter { $0.kernel == nil }.map(\.node))
        return (0..<count).map { node in
            if let name = main.kernelNames[node] { return .named(name) }
            return preparedWhenRun.contains(node) ? .preparedWhenRun : .fused
        }
    }
}
