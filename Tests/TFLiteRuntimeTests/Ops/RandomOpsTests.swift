import Foundation
import Testing
import TestSupport
@testable import TFLiteRuntime

/// The random ops' stream lives in the node: invokes continue it, allocation restarts it, and
/// an unseeded op differs between interpreters. Expected numbers are LiteRT's (op-zoo goldens).
@Suite struct RandomOpsTests {
    static func interpreter(_ name: String) throws -> Interpreter {
        let bytes = [UInt8](try Data(contentsOf: Fixtures.opZoo.appendingPathComponent("models/\(name).tflite")))
        let interpreter = try Interpreter(model: Model(bytes: bytes))
        try interpreter.allocateTensors()
        return interpreter
    }

    static func golden(_ name: String) throws -> [UInt8] {
        try NPYArray(contentsOf: Fixtures.opZoo.appendingPathComponent("cases/\(name)/out0.npy").path).data
    }

    @Test func invokesContinueTheStreamAndAllocationRestartsIt() throws {
        let four = try Self.interpreter("opzoo_random_uniform_stream_4")
        try four.invoke()
        let first = try four.output(at: 0).data
        try four.invoke()
        let second = try four.output(at: 0).data
        #expect(first + second == (try Self.golden("opzoo_random_uniform_stream_8")))
        try four.allocateTensors()
        try four.invoke()
        #expect(try four.output(at: 0).data == (try Self.golden("opzoo_random_uniform_stream_4")))
    }

    @Test func aZeroSeedPairDrawsFreshNumbers() throws {
        let op = Schema.BuiltinOperator.randomUniform
        var m = TinyModel()
        m.codes = [TinyModel.Code(op)]
        m.buffers += [TinyModel.Buffer(data: [Int32(16)].withUnsafeBytes { Array($0) })]
        m.subgraphs[0].tensors = [TinyModel.Tensor(shape: [1], type: .int32, buffer: 1, name: "shape"),
                                  TinyModel.Tensor(shape: [16], type: .float32, name: "y")]
        m.subgraphs[0].inputs = []
        m.subgraphs[0].outputs = [1]
        m.subgraphs[0].operators = [.init(inputs: [0], outputs: [1])]
        let a = try Interpreter(model: Model(bytes: m.bytes())), b = try Interpreter(model: Model(bytes: m.bytes()))
        try a.allocateTensors()
        try b.allocateTensors()
        try a.invoke()
        try b.invoke()
        let x = try a.output(at: 0).data, y = try b.output(at: 0).data
        #expect(x != y)
        let values = x.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(values.allSatisfy { $0 >= 0 && $0 < 1 })
    }
}
