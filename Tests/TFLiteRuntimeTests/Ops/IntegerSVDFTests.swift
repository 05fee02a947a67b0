import Testing
import TestSupport
@testable import TFLiteRuntime

/// The int8 SVDF's prepare refuses shapes and options its kernel cannot run (its results are
/// checked against LiteRT and TFLite Micro by PeerConformanceTests).
@Suite struct IntegerSVDFTests {
    /// An int8 SVDF over a [1, 4] input with `filters` feature filters, memory 2 and `rank`.
    static func model(filters: Int32, rank: Int32, activation: Schema.ActivationFunctionType = .relu) -> TinyModel {
        var m = TinyModel()
        m.codes = [TinyModel.Code(.svdf)]
        m.buffers = [TinyModel.Buffer(), TinyModel.Buffer(data: [UInt8](repeating: 1, count: Int(filters) * 4)),
                     TinyModel.Buffer(data: [UInt8](repeating: 1, count: Int(filters) * 2 * 2))]
        let q: [Float] = [0.1]
        m.subgraphs[0].tensors = [
            TinyModel.Tensor(shape: [1, 4], type: .int8, name: "x", scales: q, zeroPoints: [0]),
            TinyModel.Tensor(shape: [filters, 4], type: .int8, buffer: 1, name: "feature", scales: q, zeroPoints: [0]),
            TinyModel.Tensor(shape: [filters, 2], type: .int16, buffer: 2, name: "time", scales: q, zeroPoints: [0]),
            TinyModel.Tensor(shape: [1, filters * 2], type: .int16, name: "state", scales: q, zeroPoints: [0]),
            TinyModel.Tensor(shape: [1, filters / max(rank, 1)], type: .int8, name: "y", scales: q, zeroPoints: [0]),
        ]
        m.subgraphs[0].inputs = [0, 3]
        m.subgraphs[0].outputs = [4]
        m.subgraphs[0].operators = [.init(opcodeIndex: 0, inputs: [0, 1, 2, -1, 3], outputs: [4],
                                          options: .sVDFOptions(.init(rank: rank, fusedActivationFunction: activation)))]
        return m
    }

    @Test func rankThatDoesNotDivideTheFiltersIsRefused() throws {
        let interpreter = try Interpreter(model: Model(bytes: Self.model(filters: 6, rank: 4).bytes()))
        #expect(throws: InterpreterError.invalidNode(node: 0, op: "SVDF", reason: "rank 4 must be positive and divide the 6 filters")) {
            try interpreter.allocateTensors()
        }
    }

    @Test func zeroRankIsRefused() throws {
        let interpreter = try Interpreter(model: Model(bytes: Self.model(filters: 6, rank: 0).bytes()))
        #expect(throws: InterpreterError.invalidNode(node: 0, op: "SVDF", reason: "rank 0 must be positive and divide the 6 filters")) {
            try interpreter.allocateTensors()
        }
    }

    /// LiteRT's integer kernel takes only RELU (and applies no clamp beyond int8's).
    @Test func activationOtherThanReluIsRefused() throws {
        let interpreter = try Interpreter(model: Model(bytes: Self.model(filters: 6, rank: 2, activation: .tanh).bytes()))
        #expect(throws: InterpreterError.unsupportedOperator(
            node: 0, op: "SVDF", reason: "integer SVDF with activation TANH; LiteRT's integer kernel takes only RELU")) {
            try interpreter.allocateTensors()
        }
    }

    /// The well-formed model of the same builder runs, so the refusals above are about the one
    /// field each changes.
    @Test func wellFormedModelRuns() throws {
        let interpreter = try Interpreter(model: Model(bytes: Self.model(filters: 6, rank: 2).bytes()))
        try interpreter.allocateTensors()
        try interpreter.invoke()
    }
}
