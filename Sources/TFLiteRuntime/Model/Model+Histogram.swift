extension Model {
    /// How many operators of each kind the model holds over all subgraphs, keyed by
    /// ``OperatorKind/name`` (builtin names such as `CONV_2D`, custom ops by custom code).
    public func operatorHistogram() -> [String: Int] {
        var histogram: [String: Int] = [:]
        for subgraph in schema.subgraphs {
            for op in subgraph.operators {
                histogram[operatorKind(ofCode: Int(op.opcodeIndex)).name, default: 0] += 1
            }
        }
        return histogram
    }
}
