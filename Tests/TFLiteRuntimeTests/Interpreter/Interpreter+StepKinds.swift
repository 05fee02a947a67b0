@testable import TFLiteRuntime

extension Interpreter {
    /// The operator of every step the main subgraph's plan runs, in order: what the fold tests
    /// check for dropped nodes.
    var stepKinds: [Model.OperatorKind] {
        let graph = main.model.schema.subgraphs[0]
        return main.steps.map { main.model.operatorKind(ofCode: Int(graph.operators[$0.node].opcodeIndex)) }
    }
}
