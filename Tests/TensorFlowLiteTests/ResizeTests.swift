import Foundation
import Testing
import TensorFlowLite

/// `resizeInput(at:to:)` with LiteRT's non-strict semantics: any shape the graph can take.
@Suite struct ResizeTests {
    @Test func resizesADynamicBatchBothWays() throws {
        let b1 = try Corpus("zoo_dynamic_batch__b1"), b3 = try Corpus("zoo_dynamic_batch__b3")
        let interpreter = try Interpreter(modelPath: b1.modelPath)
        try interpreter.allocateTensors()
        #expect(try interpreter.input(at: 0).shape.dimensions == b1.inputs[0].shape)
        for c in [b3, b1] {
            try interpreter.resizeInput(at: 0, to: Tensor.Shape(c.inputs[0].shape))
            try interpreter.allocateTensors()
            try interpreter.copy(c.inputs[0].data, toInputAt: 0)
            try interpreter.invoke()
            let output = try interpreter.output(at: 0), file = c.entry.outputs[0]
            #expect(output.shape.dimensions == c.goldens[0].shape)
            #expect(matches(output.data, c.goldens[0].data, dtype: file.dtype, tolerance: file.tolerance))
        }
    }

    @Test func tensorsMustBeAllocatedAgainAfterAResize() throws {
        let interpreter = try Interpreter(modelPath: Corpus.modelPath("zoo_dynamic_batch"))
        try interpreter.allocateTensors()
        try interpreter.resizeInput(at: 0, to: [3, 8])
        #expect(throws: InterpreterError.allocateTensorsRequired) { try interpreter.input(at: 0) }
        #expect(throws: InterpreterError.allocateTensorsRequired) { try interpreter.invoke() }
        #expect(throws: InterpreterError.invokeInterpreterRequired) { try interpreter.output(at: 0) }
        try interpreter.allocateTensors()
        #expect(try interpreter.input(at: 0).shape == [3, 8])
        #expect(try interpreter.output(at: 0).shape.dimensions.first == 3)
    }

    /// The relu model's four activations work element by element, so flattening its input
    /// gives the golden's values flattened, and stacking the case twice gives them twice.
    @Test func changesFixedDimensionsAndRankAsLiteRTDoes() throws {
        let c = try Corpus("zoo_act_relu__random")
        let interpreter = try Interpreter(modelPath: c.modelPath)
        let elements = c.inputs[0].shape.reduce(1, *)
        let stacked = [c.inputs[0].shape[0] * 2] + c.inputs[0].shape.dropFirst()
        for (shape, copies) in [([elements], 1), (stacked, 2)] {
            try interpreter.resizeInput(at: 0, to: Tensor.Shape(shape))
            try interpreter.allocateTensors()
            try interpreter.copy(Data(repeating: c.inputs[0].data, count: copies), toInputAt: 0)
            try interpreter.invoke()
            for (i, file) in c.entry.outputs.enumerated() {
                let output = try interpreter.output(at: i)
                #expect(output.shape.dimensions == shape)
                #expect(matches(output.data, Data(repeating: c.goldens[i].data, count: copies), dtype: file.dtype, tolerance: file.tolerance))
            }
        }
    }

    @Test func aShapeTheGraphCannotTakeFailsAllocationAndCanBeUndone() throws {
        let c = try Corpus("zoo_dynamic_batch__b3")
        let interpreter = try Interpreter(modelPath: c.modelPath)
        // 15 features where the fully connected layer reads 8: accepted by the resize,
        // refused when the graph is prepared.
        try interpreter.resizeInput(at: 0, to: [3, 5])
        #expect(throws: InterpreterError.failedToAllocateTensors) { try interpreter.allocateTensors() }
        #expect(throws: InterpreterError.allocateTensorsRequired) { try interpreter.invoke() }
        try interpreter.resizeInput(at: 0, to: Tensor.Shape(c.inputs[0].shape))
        try interpreter.allocateTensors()
        try interpreter.copy(c.inputs[0].data, toInputAt: 0)
        try interpreter.invoke()
        let file = c.entry.outputs[0]
        #expect(matches(try interpreter.output(at: 0).data, c.goldens[0].data, dtype: file.dtype, tolerance: file.tolerance))
    }

    @Test(arguments: [[0, 8], [-1, 8], [Int.max, 8], [1 << 40, 1 << 30]])
    func refusesImpossibleExtents(shape: [Int]) throws {
        let interpreter = try Interpreter(modelPath: Corpus.modelPath("zoo_dynamic_batch"))
        #expect(throws: InterpreterError.failedToResizeInputTensor(index: 0)) {
            try interpreter.resizeInput(at: 0, to: Tensor.Shape(shape))
        }
    }
}

extension Data {
    /// `count` copies of `data`, one after the other.
    init(repeating data: Data, count: Int) {
        self.init((0..<count).flatMap { _ in data })
    }
}
