import Testing
import TestSupport
import TFLiteRuntime

/// The TensorFlowLiteSwift-shaped API on real corpus models, checked against LiteRT goldens.
@Suite struct InterpreterAPITests {
    static func corpusPath(_ name: String) -> String { Fixtures.corpusFile("models/\(name).tflite").path }
    static func npy(_ relative: String) throws -> NPYArray { try NPYArray(contentsOf: Fixtures.corpusFile(relative).path) }

    @Test func runsAModelThroughTypedCopies() throws {
        let interpreter = try Interpreter(modelPath: Self.corpusPath("sine_float"), options: .init(threadCount: 1))
        try interpreter.allocateTensors()
        #expect(interpreter.inputTensorCount == 1)
        #expect(interpreter.outputTensorCount == 1)
        let input = try Self.npy("cases/sine_float__x0/in0.npy")
        try interpreter.copy(input.values(as: Float.self), toInputAt: 0)
        try interpreter.invoke()
        let output = try interpreter.output(at: 0)
        let golden = try Self.npy("cases/sine_float__x0/out0.npy").values(as: Float.self)
        #expect(output.dataType == .float32)
        #expect(output.shape == [1, 1])
        let got = output.values(as: Float.self)
        for (a, g) in zip(got, golden) { #expect(abs(a - g) <= 1e-5 * max(1, abs(g))) }
    }

    @Test func aValueShapedOutputCannotBeReadBeforeInvoke() throws {
        // Output 1 is WHERE's: its model shape [1, 2] says nothing about what it will hold.
        let interpreter = try Interpreter(modelPath: Self.corpusPath("zoo_select_where"), options: .init(threadCount: 1))
        try interpreter.allocateTensors()
        #expect(throws: InterpreterError.self) { try interpreter.output(at: 1) }
        #expect(try interpreter.output(at: 0).shape == [3, 4])
    }

    @Test func exposesQuantizationParameters() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.models.appendingPathComponent("efficientnet_lite0.tflite").path)
        try interpreter.allocateTensors()
        let input = try interpreter.input(at: 0)
        #expect(input.dataType == .uInt8)
        #expect(input.shape == [1, 224, 224, 3])
        // Values from the corpus manifest, which read them with LiteRT.
        let q = try #require(input.quantizationParameters)
        #expect(abs(q.scale - 0.012566016986966133) < 1e-9)
        #expect(q.zeroPoint == 131)
        let output = try interpreter.output(at: 0)
        #expect(output.quantizationParameters?.scale == 0.00390625)
    }

    @Test func signatureRunnerUsesNames() throws {
        let c = try #require(try CorpusCase.all().first { $0.caseName == "zoo_two_signatures__encode" })
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile(c.model).path)
        #expect(Set(interpreter.signatureKeys) == ["encode", "decode"])
        let runner = try interpreter.signatureRunner(key: "encode")
        #expect(runner.inputNames == c.inputs.map(\.name))
        try runner.allocateTensors()
        for (name, file) in zip(runner.inputNames, c.inputs) {
            try runner.copy(Self.npy(file.file).data, toInputNamed: name)
        }
        try runner.invoke()
        for (name, file) in zip(runner.outputNames, c.outputs) {
            let golden = try Self.npy(file.file).values(as: Float.self)
            let got = try runner.output(named: name).values(as: Float.self)
            #expect(got.count == golden.count)
            for (a, g) in zip(got, golden) { #expect(abs(a - g) <= 1e-5 * max(1, abs(g))) }
        }
        #expect(throws: InterpreterError.signatureNotFound("nope")) { try interpreter.signatureRunner(key: "nope") }
    }

    @Test func resizesDynamicBatch() throws {
        let interpreter = try Interpreter(modelPath: Self.corpusPath("zoo_dynamic_batch"))
        let before = try interpreter.input(at: 0, allocating: true)
        try interpreter.resizeInput(at: 0, to: [3] + before.shape.dropFirst())
        try interpreter.allocateTensors()
        #expect(try interpreter.input(at: 0).shape.first == 3)
        #expect(try interpreter.output(at: 0).shape.first == 3)
    }
}

extension Interpreter {
    /// Allocates first, then returns input `index` (tests read shapes before resizing).
    fileprivate func input(at index: Int, allocating: Bool) throws -> Tensor {
        try allocateTensors()
        return try input(at: index)
    }
}

/// The memory planner on real models: tensors whose lifetimes do not overlap share the arena.
@Suite struct ArenaPlanningTests {
    @Test(arguments: ["mobilenet_v2_float", "mobilenet_v2_int8", "hand_landmark_lite", "mobilenet_v1_float"])
    func arenaIsSmallerThanTheSumOfTensors(_ name: String) throws {
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile("models/\(name).tflite").path)
        try interpreter.allocateTensors()
        let stats = interpreter.memoryStatistics
        #expect(stats.arenaBytes > 0)
        #expect(stats.arenaBytes < stats.tensorBytes / 2, "\(name): arena \(stats.arenaBytes), tensors \(stats.tensorBytes)")
    }
}
