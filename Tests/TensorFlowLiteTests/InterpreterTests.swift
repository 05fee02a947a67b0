import Foundation
import Testing
import TensorFlowLite

/// `Interpreter` as a TensorFlowLiteSwift user drives it, on corpus models with LiteRT goldens.
@Suite struct InterpreterTests {
    @Test(arguments: ["sine_float__x0", "zoo_act_relu__random", "zoo_act_relu_int8__random", "zoo_select_where__random",
                      "zoo_cast__random", "zoo_conv2d_16x8__random"])
    func matchesLiteRTGoldens(caseName: String) throws {
        let c = try Corpus(caseName)
        let interpreter = try Interpreter(modelPath: c.modelPath)
        #expect(interpreter.inputTensorCount == c.inputs.count)
        #expect(interpreter.outputTensorCount == c.goldens.count)
        try interpreter.allocateTensors()
        for (i, input) in c.inputs.enumerated() {
            let copied = try interpreter.copy(input.data, toInputAt: i)
            // copy(_:toInputAt:) hands back the input, holding exactly the bytes given.
            #expect(copied.data == input.data)
            #expect(copied.shape.dimensions == input.shape)
            // The manifest names the signature's inputs; the converter names the tensors after them.
            #expect(copied.name.contains(c.entry.inputs[i].name))
            #expect(copied.dataType == dataType(ofNumPy: c.entry.inputs[i].dtype))
            #expect(try interpreter.input(at: i) == copied)
        }
        try interpreter.invoke()
        for (i, golden) in c.goldens.enumerated() {
            let file = c.entry.outputs[i]
            let output = try interpreter.output(at: i)
            #expect(!output.name.isEmpty)
            #expect(output.dataType == dataType(ofNumPy: file.dtype))
            #expect(output.shape.dimensions == golden.shape)
            #expect(matches(output.data, golden.data, dtype: file.dtype, tolerance: file.tolerance), "output \(i) '\(file.name)'")
        }
    }

    @Test func loadsAModelFromItsBytes() throws {
        let c = try Corpus("sine_float__x0")
        let interpreter = try Interpreter(modelData: Data(contentsOf: URL(fileURLWithPath: c.modelPath)))
        try interpreter.allocateTensors()
        try interpreter.copy(c.inputs[0].data, toInputAt: 0)
        try interpreter.invoke()
        let file = c.entry.outputs[0]
        #expect(matches(try interpreter.output(at: 0).data, c.goldens[0].data, dtype: file.dtype, tolerance: file.tolerance))
    }

    @Test func refusesMissingAndInvalidModels() {
        #expect(throws: InterpreterError.failedToLoadModel) { try Interpreter(modelPath: "/invalid/path") }
        #expect(throws: InterpreterError.failedToLoadModel) { try Interpreter(modelPath: "") }
        #expect(throws: InterpreterError.failedToLoadModel) { try Interpreter(modelData: Data("not a model".utf8)) }
    }

    @Test func refusesIndicesOutOfRange() throws {
        let interpreter = try Interpreter(modelPath: Corpus.modelPath("sine_float"))
        try interpreter.allocateTensors()
        try interpreter.invoke()
        for bad in [-1, 1] {
            let error = InterpreterError.invalidTensorIndex(index: bad, maxIndex: 0)
            #expect(throws: error) { try interpreter.input(at: bad) }
            #expect(throws: error) { try interpreter.output(at: bad) }
            #expect(throws: error) { try interpreter.resizeInput(at: bad, to: [1, 1]) }
            #expect(throws: error) { try interpreter.copy(Data(count: 4), toInputAt: bad) }
        }
    }

    @Test func refusesDataOfTheWrongSize() throws {
        let interpreter = try Interpreter(modelPath: Corpus.modelPath("sine_float"))
        try interpreter.allocateTensors()
        for count in [0, 3, 5] {
            #expect(throws: InterpreterError.invalidTensorDataCount(provided: count, required: 4)) {
                try interpreter.copy(Data(count: count), toInputAt: 0)
            }
        }
    }

    @Test func needsAllocatedTensors() throws {
        let interpreter = try Interpreter(modelPath: Corpus.modelPath("sine_float"))
        #expect(throws: InterpreterError.allocateTensorsRequired) { try interpreter.invoke() }
        #expect(throws: InterpreterError.allocateTensorsRequired) { try interpreter.input(at: 0) }
        #expect(throws: InterpreterError.allocateTensorsRequired) { try interpreter.copy(Data(count: 4), toInputAt: 0) }
        #expect(throws: InterpreterError.invokeInterpreterRequired) { try interpreter.output(at: 0) }
    }

    @Test func outputsOfFixedShapeCanBeReadBeforeInvoke() throws {
        let c = try Corpus("sine_float__x0")
        let interpreter = try Interpreter(modelPath: c.modelPath)
        try interpreter.allocateTensors()
        let output = try interpreter.output(at: 0)
        #expect(!output.name.isEmpty)
        #expect(output.dataType == .float32)
        #expect(output.shape == Tensor.Shape(c.goldens[0].shape))
        #expect(output.data.count == c.goldens[0].data.count)
    }

    @Test func outputsShapedByValuesNeedInvoke() throws {
        let c = try Corpus("zoo_select_where__random")
        let whereOutput = try #require(c.entry.outputs.firstIndex { $0.name == "where" })
        let interpreter = try Interpreter(modelPath: c.modelPath)
        try interpreter.allocateTensors()
        #expect(throws: InterpreterError.invokeInterpreterRequired) { try interpreter.output(at: whereOutput) }
        for (i, input) in c.inputs.enumerated() { try interpreter.copy(input.data, toInputAt: i) }
        try interpreter.invoke()
        #expect(try interpreter.output(at: whereOutput).data == c.goldens[whereOutput].data)
        // A new allocation forgets the results.
        try interpreter.allocateTensors()
        #expect(throws: InterpreterError.invokeInterpreterRequired) { try interpreter.output(at: whereOutput) }
    }

    @Test func reportsKernelFailuresWithTheirMessage() throws {
        let c = try Corpus("zoo_gather__random")
        let interpreter = try Interpreter(modelPath: c.modelPath)
        try interpreter.allocateTensors()
        for (i, input) in c.inputs.enumerated() {
            let indices = c.entry.inputs[i].dtype == "int32"
            // Gather indices far past the gathered axis: LiteRT fails the invocation too.
            try interpreter.copy(indices ? Data(repeating: 0x7F, count: input.data.count) : input.data, toInputAt: i)
        }
        #expect {
            try interpreter.invoke()
        } throws: { error in
            guard case .tensorFlowLiteError(let message)? = error as? InterpreterError else { return false }
            return !message.isEmpty
        }
    }

    @Test(arguments: [nil, -1, 0, 1, 2] as [Int?])
    func runsWithAnyThreadCount(threads: Int?) throws {
        let c = try Corpus("zoo_act_relu__random")
        var options = Interpreter.Options()
        options.threadCount = threads
        let interpreter = try Interpreter(modelPath: c.modelPath, options: options)
        #expect(interpreter.options == options)
        try interpreter.allocateTensors()
        try interpreter.copy(c.inputs[0].data, toInputAt: 0)
        try interpreter.invoke()
        for (i, file) in c.entry.outputs.enumerated() {
            #expect(matches(try interpreter.output(at: i).data, c.goldens[i].data, dtype: file.dtype, tolerance: file.tolerance))
        }
    }
}
