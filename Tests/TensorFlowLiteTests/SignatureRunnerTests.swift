import Foundation
import Testing
import TensorFlowLite

/// `SignatureRunner` on the corpus model with two SignatureDefs ('encode' and 'decode').
@Suite struct SignatureRunnerTests {
    static let model = Corpus.modelPath("zoo_two_signatures")

    @Test func listsAndOpensSignatures() throws {
        let interpreter = try Interpreter(modelPath: Self.model)
        #expect(interpreter.signatureKeys.sorted() == ["decode", "encode"])
        #expect(try interpreter.signatureRunner(with: "encode").signatureKey == "encode")
        #expect(throws: SignatureRunnerError.failedToCreateSignatureRunner(signatureKey: "dummy")) {
            try interpreter.signatureRunner(with: "dummy")
        }
    }

    @Test(arguments: ["zoo_two_signatures__encode", "zoo_two_signatures__decode"])
    func invokesWithNamedInputs(caseName: String) throws {
        let c = try Corpus(caseName)
        let runner = try Interpreter(modelPath: c.modelPath).signatureRunner(with: try #require(c.entry.signature))
        #expect(runner.inputs == c.entry.inputs.map(\.name))
        #expect(runner.outputs == c.entry.outputs.map(\.name))
        // Allocated on creation: outputs show their type and shape before the first run.
        for (name, golden) in zip(runner.outputs, c.goldens) {
            let output = try runner.output(named: name)
            #expect(output.dataType == .float32)
            #expect(output.shape.dimensions == golden.shape)
        }
        try runner.invoke(with: Dictionary(uniqueKeysWithValues: zip(runner.inputs, c.inputs.map(\.data))))
        for (i, name) in runner.outputs.enumerated() {
            let file = c.entry.outputs[i]
            #expect(matches(try runner.output(named: name).data, c.goldens[i].data, dtype: file.dtype, tolerance: file.tolerance))
        }
    }

    @Test func copiesAndReadsBackInputs() throws {
        let c = try Corpus("zoo_two_signatures__decode")
        let runner = try Interpreter(modelPath: c.modelPath).signatureRunner(with: "decode")
        try runner.copy(c.inputs[0].data, toInputNamed: runner.inputs[0])
        let input = try runner.input(named: runner.inputs[0])
        #expect(input.data == c.inputs[0].data)
        #expect(input.shape.dimensions == c.inputs[0].shape)
        let bytes = c.inputs[0].data.count
        #expect(throws: SignatureRunnerError.invalidTensorDataCount(provided: bytes / 2, required: bytes)) {
            try runner.copy(Data(count: bytes / 2), toInputNamed: runner.inputs[0])
        }
    }

    @Test func refusesUnknownNames() throws {
        let runner = try Interpreter(modelPath: Self.model).signatureRunner(with: "decode")
        let input = SignatureRunnerError.failedToGetTensor(tensorType: "input", nameInSignature: "dummy")
        #expect(throws: input) { try runner.input(named: "dummy") }
        #expect(throws: input) { try runner.copy(Data(count: 16), toInputNamed: "dummy") }
        #expect(throws: input) { try runner.invoke(with: ["dummy": Data(count: 16)]) }
        #expect(throws: SignatureRunnerError.failedToGetTensor(tensorType: "output", nameInSignature: "dummy")) {
            try runner.output(named: "dummy")
        }
        #expect(throws: SignatureRunnerError.failedToResizeInputTensor(inputName: "dummy")) {
            try runner.resizeInput(named: "dummy", toShape: [2, 4])
        }
    }

    /// 'decode' is elementwise (a product and a sum of its inputs), so stacking the case twice
    /// along the batch axis gives the goldens twice.
    @Test func resizesInputs() throws {
        let c = try Corpus("zoo_two_signatures__decode")
        let stacked = Tensor.Shape([c.inputs[0].shape[0] * 2] + c.inputs[0].shape.dropFirst())
        let interpreter = try Interpreter(modelPath: c.modelPath)
        for allocatesExplicitly in [true, false] {
            let runner = try interpreter.signatureRunner(with: "decode")
            for name in runner.inputs { try runner.resizeInput(named: name, toShape: stacked) }
            #expect(throws: SignatureRunnerError.allocateTensorsRequired) { try runner.input(named: runner.inputs[0]) }
            if allocatesExplicitly {
                try runner.allocateTensors()
                #expect(try runner.input(named: runner.inputs[0]).shape == stacked)
            }
            try runner.invoke(with: Dictionary(uniqueKeysWithValues: zip(runner.inputs, c.inputs.map { Data(repeating: $0.data, count: 2) })))
            for (i, name) in runner.outputs.enumerated() {
                let output = try runner.output(named: name), file = c.entry.outputs[i]
                #expect(output.shape == stacked)
                #expect(matches(output.data, Data(repeating: c.goldens[i].data, count: 2), dtype: file.dtype, tolerance: file.tolerance))
            }
        }
    }

    @Test func refusesShapesTheGraphCannotTake() throws {
        let runner = try Interpreter(modelPath: Self.model).signatureRunner(with: "decode")
        #expect(throws: SignatureRunnerError.failedToResizeInputTensor(inputName: runner.inputs[0])) {
            try runner.resizeInput(named: runner.inputs[0], toShape: [0, 4])
        }
        // Batches of 2 and 3 do not broadcast against each other.
        try runner.resizeInput(named: runner.inputs[0], toShape: [2, 4])
        try runner.resizeInput(named: runner.inputs[1], toShape: [3, 4])
        #expect(throws: SignatureRunnerError.failedToAllocateTensors) { try runner.allocateTensors() }
        #expect(throws: SignatureRunnerError.failedToAllocateTensors) { try runner.invoke(with: [:]) }
        #expect(throws: SignatureRunnerError.allocateTensorsRequired) { try runner.output(named: runner.outputs[0]) }
    }
}
