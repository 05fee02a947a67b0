extension Model {
    /// The subgraph an ``Interpreter`` runs: the first, which load proved present.
    public var mainSubgraph: Schema.SubGraph { schema.subgraphs[0] }

    /// The tensor at position `index` of the main subgraph's inputs; nil when there is none.
    /// Load proved that every input names a tensor of the subgraph.
    public func inputTensor(at index: Int) -> Schema.Tensor? {
        let graph = mainSubgraph
        return graph.inputs.indices.contains(index) ? graph.tensors[Int(graph.inputs[index])] : nil
    }

    /// The tensor at position `index` of the main subgraph's outputs; nil when there is none.
    /// Load proved that every output names a tensor of the subgraph.
    public func outputTensor(at index: Int) -> Schema.Tensor? {
        let graph = mainSubgraph
        return graph.outputs.indices.contains(index) ? graph.tensors[Int(graph.outputs[index])] : nil
    }
}
