import TFLiteRuntime

/// Whether the runtime has a kernel for every op of a model, so whole-model tests can run.
enum RuntimeSupport {
    static func runsAllOps(_ path: String) -> Bool {
        guard let model = try? Model(path: path) else { return false }
        for graph in model.schema.subgraphs {
            for op in graph.operators where !SupportedOperators.contains(model.operatorKind(ofCode: Int(op.opcodeIndex))) {
                return false
            }
        }
        return true
    }
}
