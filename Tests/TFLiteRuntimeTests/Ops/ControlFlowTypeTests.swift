import Testing
@testable import TFLiteRuntime

/// Control-flow results are copied byte for byte between subgraphs, so a subgraph returning a
/// type other than the node's output (which would be read past its buffer) is refused at
/// prepare.
@Suite struct ControlFlowTypeTests {
    typealias Region = HLONodeModel.Region

    @Test func ifBranchReturningAnotherTypeIsRejected() {
        let model = HLONodeModel(op: .if, inputs: [.input([], .bool), .input([64], .int8)], outputs: [.output([64], .float64)],
                                 options2: nil, options: .ifOptions(Schema.IfOptions(thenSubgraphIndex: 1, elseSubgraphIndex: 1)),
                                 regions: [.unary(nil, shape: [64], .int8)])
        let r = StableHLOHostileTests.reason { _ = try model.interpreter() }
        #expect(r?.contains("subgraph 1 returns INT8 as value 0, output 0 is declared FLOAT64") == true)
    }

    @Test func whileVariablesKeepTheirType() {
        let condition = Region(tensors: [TinyModel.Tensor(shape: [4], type: .int32), TinyModel.Tensor(shape: [4], type: .bool)],
                               inputs: [0], outputs: [1], operators: [(.less, [0, 0], [1])])
        let model = { (output: Schema.TensorType) in
            HLONodeModel(op: .while, inputs: [.input([4], .int32)], outputs: [.output([4], output)], options2: nil,
                         options: .whileOptions(Schema.WhileOptions(condSubgraphIndex: 1, bodySubgraphIndex: 2)),
                         regions: [condition, .unary(nil, shape: [4], .int32)])
        }
        #expect(StableHLOHostileTests.reason { _ = try model(.int32).interpreter() } == nil)
        let r = StableHLOHostileTests.reason { _ = try model(.int64).interpreter() }
        #expect(r?.contains("loop variable 0 is INT32, but the body returns INT32 and output 0 is declared INT64") == true)
    }
}
