import Foundation
import Testing
import TensorFlowLite

/// `Tensor`, `Tensor.Shape`, `Tensor.DataType` and `QuantizationParameters`.
@Suite struct TensorTests {
    @Test func shapesFromArraysElementsAndLiterals() {
        let fromArray = Tensor.Shape([1, 224, 224, 3])
        let fromElements = Tensor.Shape(1, 224, 224, 3)
        let fromLiteral: Tensor.Shape = [1, 224, 224, 3]
        #expect(fromArray == fromElements)
        #expect(fromElements == fromLiteral)
        #expect(fromLiteral.rank == 4)
        #expect(fromLiteral.dimensions == [1, 224, 224, 3])
        #expect(Set([fromArray, fromElements, fromLiteral]).count == 1)
        #expect(Tensor.Shape([]).rank == 0)
        #expect(Tensor.Shape(2) != Tensor.Shape(2, 1))
    }

    @Test func snapshotsOfTheSameTensorAreEqual() throws {
        let c = try Corpus("sine_float__x0")
        let interpreter = try Interpreter(modelPath: c.modelPath)
        try interpreter.allocateTensors()
        try interpreter.copy(c.inputs[0].data, toInputAt: 0)
        let a = try interpreter.input(at: 0), b = try interpreter.input(at: 0)
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        try interpreter.copy(Data(count: 4), toInputAt: 0)
        #expect(try interpreter.input(at: 0) != a)
    }

    @Test func quantisedTensorsCarryTheirParameters() throws {
        let c = try Corpus("zoo_act_relu_int8__random")
        let interpreter = try Interpreter(modelPath: c.modelPath)
        try interpreter.allocateTensors()
        let input = try interpreter.input(at: 0)
        let expectedInput = try #require(try c.quantization(input: 0))
        #expect(input.dataType == .int8)
        #expect(input.quantizationParameters?.scale == expectedInput.scale)
        #expect(input.quantizationParameters?.zeroPoint == expectedInput.zeroPoint)
        for i in 0..<interpreter.outputTensorCount {
            let expected = try #require(try c.quantization(output: i))
            let q = try #require(try interpreter.output(at: i).quantizationParameters)
            #expect(q.scale == expected.scale)
            #expect(q.zeroPoint == expected.zeroPoint)
        }
    }

    @Test func floatTensorsAreNotQuantised() throws {
        let interpreter = try Interpreter(modelPath: Corpus.modelPath("sine_float"))
        try interpreter.allocateTensors()
        #expect(try interpreter.input(at: 0).quantizationParameters == nil)
        #expect(try interpreter.output(at: 0).quantizationParameters == nil)
    }
}
