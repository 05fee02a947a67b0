import Foundation
import Testing
import TFLiteRuntime
@testable import TFLiteTasks

/// Declared formats are checked against the model, with messages naming index and expectation.
@Suite struct ModelInterpreterTests {
    static let zoo = TaskFixtures.corpusPath("models/zoo_pool.tflite")

    static func formats(_ model: Model) throws -> ModelInputOutputOptions {
        let it = try Interpreter(model: model)
        try it.allocateTensors()
        var o = ModelInputOutputOptions()
        for i in 0..<it.inputTensorCount {
            let t = try it.input(at: i)
            try o.setInputFormat(index: i, type: #require(ModelElementType.allCases.first { $0.dataType == t.dataType }), dimensions: t.shape)
        }
        for i in 0..<it.outputTensorCount {
            let t = try it.output(at: i)
            try o.setOutputFormat(index: i, type: #require(ModelElementType.allCases.first { $0.dataType == t.dataType }), dimensions: t.shape)
        }
        return o
    }

    @Test func runMatchesGoldenAndNestedShape() throws {
        let local = try LocalModel(path: Self.zoo)
        let interpreter = try ModelInterpreter(localModel: local, options: Self.formats(local.model))
        let input = try TaskFixtures.npy(TaskFixtures.corpusPath("cases/zoo_pool__random/in0.npy"))
        var inputs = ModelInputs()
        inputs.addInput(input.values(as: Float.self))
        let outputs = try interpreter.run(inputs: inputs)
        let golden = try TaskFixtures.npy(TaskFixtures.corpusPath("cases/zoo_pool__random/out0.npy"))
        let got = try outputs.values(index: 0, as: Float.self)
        #expect(got.count == golden.elementCount)
        for (a, b) in zip(got, golden.values(as: Float.self)) { #expect(abs(a - b) <= 1e-5 + 1e-5 * abs(b)) }
        // The nested form follows the shape.
        let nested = try outputs.output(index: 0)
        var dims: [Int] = []
        var level: Any = nested
        while let a = level as? [Any] { dims.append(a.count); level = a.first as Any }
        #expect(dims == golden.shape)
    }

    @Test func wrongInputTypeIsRejected() throws {
        let local = try LocalModel(path: Self.zoo)
        var o = try Self.formats(local.model)
        let dims = try #require(o.inputFormats[0]).dimensions
        try o.setInputFormat(index: 0, type: .int32, dimensions: dims)
        #expect { try ModelInterpreter(localModel: local, options: o) } throws: { error in
            guard case TaskError.invalidFormat(let m) = error else { return false }
            return m.contains("input 0") && m.contains("INT32") && m.contains("FLOAT32")
        }
    }

    @Test func wrongDimensionsAreRejected() throws {
        let local = try LocalModel(path: Self.zoo)
        var o = try Self.formats(local.model)
        try o.setInputFormat(index: 0, type: .float32, dimensions: [1, 2, 3])
        #expect { try ModelInterpreter(localModel: local, options: o) } throws: { error in
            guard case TaskError.invalidFormat(let m) = error else { return false }
            return m.contains("input 0") && m.contains("[1, 2, 3]")
        }
    }

    @Test func undeclaredAndOutOfRangeIndices() throws {
        let local = try LocalModel(path: Self.zoo)
        #expect(throws: TaskError.self) { try ModelInterpreter(localModel: local, options: ModelInputOutputOptions()) }
        var o = try Self.formats(local.model)
        try o.setOutputFormat(index: 7, type: .float32, dimensions: [1])
        #expect { try ModelInterpreter(localModel: local, options: o) } throws: { error in
            guard case TaskError.invalidFormat(let m) = error else { return false }
            return m.contains("output index 7")
        }
        #expect(throws: TaskError.self) { try o.setInputFormat(index: 0, type: .float32, dimensions: [0]) }
    }

    @Test func wrongInputDataIsRejectedAtRun() throws {
        let local = try LocalModel(path: Self.zoo)
        let interpreter = try ModelInterpreter(localModel: local, options: Self.formats(local.model))
        var inputs = ModelInputs()
        inputs.addInput([Int32(1), 2, 3])
        #expect { try interpreter.run(inputs: inputs) } throws: { error in
            guard case TaskError.invalidFormat(let m) = error else { return false }
            return m.contains("input 0") && m.contains("INT32")
        }
        var short = ModelInputs()
        short.addInput(bytes: [1, 2, 3])
        #expect { try interpreter.run(inputs: short) } throws: { error in
            guard case TaskError.invalidFormat(let m) = error else { return false }
            return m.contains("3 bytes given")
        }
    }
}
