import Testing
import TestSupport
@testable import TFLiteRuntime

/// Every misuse and every model that contradicts itself gives a clear `InterpreterError`.
@Suite struct InterpreterHostileInputTests {
    static let sine = Fixtures.corpusFile("models/sine_float.tflite").path
    static let dynamicBatch = Fixtures.corpusFile("models/zoo_dynamic_batch.tflite").path

    @Test func wrongInputByteCount() throws {
        let interpreter = try Interpreter(modelPath: Self.sine)
        try interpreter.allocateTensors()
        #expect(throws: InterpreterError.invalidDataSize(tensor: try interpreter.input(at: 0).name, expected: 4, actual: 3)) {
            try interpreter.copy([1, 2, 3], toInputAt: 0)
        }
    }

    @Test func wrongInputType() throws {
        let interpreter = try Interpreter(modelPath: Self.sine)
        try interpreter.allocateTensors()
        #expect(throws: InterpreterError.invalidDataType(tensor: try interpreter.input(at: 0).name, expected: .float32, actual: .int32)) {
            try interpreter.copy([Int32(1)], toInputAt: 0)
        }
    }

    @Test func inputIndexOutOfRange() throws {
        let interpreter = try Interpreter(modelPath: Self.sine)
        try interpreter.allocateTensors()
        #expect(throws: InterpreterError.invalidTensorIndex(index: 5, count: 1, role: "input")) { try interpreter.input(at: 5) }
        #expect(throws: InterpreterError.invalidTensorIndex(index: -1, count: 1, role: "output")) { try interpreter.output(at: -1) }
    }

    @Test func useBeforeAllocation() throws {
        let interpreter = try Interpreter(modelPath: Self.sine)
        #expect(throws: InterpreterError.tensorsNotAllocated) { try interpreter.invoke() }
        #expect(throws: InterpreterError.tensorsNotAllocated) { try interpreter.copy([Float(0)], toInputAt: 0) }
    }

    @Test func rankMismatchAndFixedDimensions() throws {
        let interpreter = try Interpreter(modelPath: Self.dynamicBatch)
        try interpreter.allocateTensors()
        let shape = try interpreter.input(at: 0).shape
        #expect(throws: InterpreterError.self) { try interpreter.resizeInput(at: 0, to: [2]) }
        // Only the batch dimension is dynamic in this model.
        #expect(throws: InterpreterError.self) { try interpreter.resizeInput(at: 0, to: [1, shape[1] + 1]) }
        #expect(throws: InterpreterError.self) { try interpreter.resizeInput(at: 0, to: [1, -3]) }
        // zoo_conv2d's input signature is fully fixed: [1, 12, 12, 3].
        let fixed = try Interpreter(modelPath: Fixtures.corpusFile("models/zoo_conv2d.tflite").path)
        #expect(throws: InterpreterError.self) { try fixed.resizeInput(at: 0, to: [2, 12, 12, 3]) }
    }

    @Test func resizeToZeroOrHugeIsRefused() throws {
        let interpreter = try Interpreter(modelPath: Self.dynamicBatch)
        try interpreter.allocateTensors()
        let shape = try interpreter.input(at: 0).shape
        #expect(throws: InterpreterError.self) { try interpreter.resizeInput(at: 0, to: [0] + shape.dropFirst()) }
        #expect(throws: InterpreterError.self) { try interpreter.resizeInput(at: 0, to: [Int.max / 2] + shape.dropFirst()) }
        var options = Interpreter.Options()
        options.memoryLimit = 1 << 20
        let limited = try Interpreter(modelPath: Self.dynamicBatch, options: options)
        #expect(throws: InterpreterError.self) { try limited.resizeInput(at: 0, to: [1 << 20] + shape.dropFirst()) }
        // The failed resizes left the interpreter usable.
        try interpreter.allocateTensors()
        try interpreter.invoke()
    }

    @Test func shapesThatDoNotBroadcast() throws {
        // ADD of [2] and [3]: the model contradicts itself; prepare names the node.
        var m = TinyModel()
        m.subgraphs[0].tensors = [.init(shape: [2], name: "a"), .init(shape: [3], name: "b"), .init(shape: [3], name: "y")]
        let interpreter = try Interpreter(model: Model(bytes: m.bytes()))
        #expect(throws: InterpreterError.invalidNode(node: 0, op: "ADD", reason: "shapes [2] and [3] do not broadcast (rank at most 6)")) {
            try interpreter.allocateTensors()
        }
    }

    @Test func optionsThatContradictShapes() throws {
        // A 5x5 VALID pooling window over a 3x3 input.
        var pool = TinyModel()
        pool.codes = [.init(.maxPool2d)]
        pool.subgraphs[0].tensors = [.init(shape: [1, 3, 3, 1], name: "x"), .init(shape: [1, 1, 1, 1], name: "y")]
        pool.subgraphs[0].inputs = [0]
        pool.subgraphs[0].outputs = [1]
        pool.subgraphs[0].operators = [.init(inputs: [0], outputs: [1], options: .pool2DOptions(
            Schema.Pool2DOptions(padding: .valid, strideW: 1, strideH: 1, filterWidth: 5, filterHeight: 5)))]
        let p = try Interpreter(model: Model(bytes: pool.bytes()))
        #expect(throws: InterpreterError.self) { try p.allocateTensors() }

        // RESHAPE of 6 elements to [4].
        var reshape = TinyModel()
        reshape.codes = [.init(.reshape)]
        reshape.subgraphs[0].tensors = [.init(shape: [2, 3], name: "x"), .init(shape: [4], name: "y")]
        reshape.subgraphs[0].inputs = [0]
        reshape.subgraphs[0].outputs = [1]
        reshape.subgraphs[0].operators = [.init(inputs: [0], outputs: [1], options: .reshapeOptions(Schema.ReshapeOptions(newShape: [4])))]
        let r = try Interpreter(model: Model(bytes: reshape.bytes()))
        #expect(throws: InterpreterError.invalidNode(node: 0, op: "RESHAPE", reason: "cannot reshape [2, 3] (6 elements) to [4]")) {
            try r.allocateTensors()
        }
    }

    @Test func unsupportedOperatorIsNamedAtPrepare() throws {
        var m = TinyModel()
        m.codes = [.init(.lshProjection)]
        let interpreter = try Interpreter(model: Model(bytes: m.bytes()))
        #expect(throws: InterpreterError.self) { try interpreter.allocateTensors() }
        do {
            try interpreter.allocateTensors()
        } catch {
            #expect("\(error)".contains("node 0 (LSH_PROJECTION)"))
        }
    }
}

/// Graph shapes the executor must refuse or plan correctly.
@Suite struct ExecutorGraphTests {
    @Test func twoWritersOfOneTensorAreRefused() throws {
        // Two ADD nodes both write tensor 2.
        var m = TinyModel()
        m.subgraphs[0].operators = [.init(inputs: [0, 1], outputs: [2]), .init(inputs: [0, 1], outputs: [2])]
        let interpreter = try Interpreter(model: Model(bytes: m.bytes()))
        #expect(throws: InterpreterError.invalidNode(node: 1, op: "ADD", reason: "writes tensor 2 't', which an earlier node writes")) {
            try interpreter.allocateTensors()
        }
    }

    @Test func writingAModelInputIsRefused() throws {
        var m = TinyModel()
        m.subgraphs[0].operators = [.init(inputs: [0, 1], outputs: [0])]
        let interpreter = try Interpreter(model: Model(bytes: m.bytes()))
        #expect(throws: InterpreterError.invalidNode(node: 0, op: "ADD", reason: "writes tensor 0 't', an input of the subgraph")) {
            try interpreter.allocateTensors()
        }
    }
}

extension ExecutorGraphTests {
    @Test func variableWrittenButNeverReadGetsMemory() throws {
        let dir = Fixtures.root.appendingPathComponent("Tests/Fixtures/runtime")
        let input = try NPYArray(contentsOf: dir.appendingPathComponent("variable_output_in0.npy").path)
        let outputs = try ModelRunner.run(modelPath: dir.appendingPathComponent("variable_output.tflite").path, inputs: [input], threads: 1)
        #expect(!outputs.isEmpty)
    }
}
