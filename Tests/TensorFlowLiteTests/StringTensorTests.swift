import Foundation
import Testing
import TestSupport
import TensorFlowLite

/// String inputs and outputs as a TensorFlowLiteSwift user handles them: `Data` in TensorFlow
/// Lite's string layout (int32 count, count + 1 int32 offsets, then the bytes).
@Suite struct StringTensorTests {
    static func packed(_ strings: [String]) -> Data {
        var offsets = [Int32(4 * (strings.count + 2))]
        for s in strings { offsets.append(offsets.last! + Int32(s.utf8.count)) }
        var data = Data()
        for v in [Int32(strings.count)] + offsets { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        for s in strings { data.append(contentsOf: Array(s.utf8)) }
        return data
    }

    static func unpacked(_ data: Data) -> [String] {
        let bytes = [UInt8](data)
        func int32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        return (0..<int32(0)).map { i in String(decoding: bytes[int32(4 + 4 * i)..<int32(8 + 4 * i)], as: UTF8.self) }
    }

    @Test func skipGramsOfASentence() throws {
        let root = Fixtures.opZoo
        let interpreter = try Interpreter(modelPath: root.appendingPathComponent("models/opzoo_skip_gram_n3_skip0.tflite").path)
        try interpreter.allocateTensors()
        #expect(try interpreter.input(at: 0).dataType == .string)
        try interpreter.copy(Self.packed(["the quick  brown fox\tjumps over the\nlazy dog"]), toInputAt: 0)
        try interpreter.invoke()
        let output = try interpreter.output(at: 0)
        #expect(output.dataType == .string)
        // LiteRT's golden: fixed-width NUL-padded byte strings (NumPy `S`).
        let golden = try NPYFile(contentsOf: root.appendingPathComponent("cases/opzoo_skip_gram_n3_skip0/out0.npy"))
        let width = golden.data.count / golden.shape[0]
        let expected = (0..<golden.shape[0]).map { i in
            String(decoding: golden.data[(i * width)..<((i + 1) * width)].prefix { $0 != 0 }, as: UTF8.self)
        }
        #expect(output.shape.dimensions == golden.shape)
        #expect(Self.unpacked(output.data) == expected)
    }

    @Test func malformedStringDataIsRefused() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.opZoo.appendingPathComponent("models/opzoo_skip_gram_n1_skip0.tflite").path)
        try interpreter.allocateTensors()
        #expect(throws: InterpreterError.self) { try interpreter.copy(Data([1, 0, 0, 0]), toInputAt: 0) }
        #expect(throws: InterpreterError.self) { try interpreter.copy(Self.packed(["a", "b"]), toInputAt: 0) }
    }
}
