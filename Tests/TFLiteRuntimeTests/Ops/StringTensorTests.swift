import Foundation
import Testing
import TestSupport
@testable import TFLiteRuntime

/// String tensors through the interpreter's API and the string ops, on the op-zoo models
/// whose LiteRT goldens OpZooConformanceTests checks; and the bad input each guard stops.
@Suite struct StringTensorTests {
    static func model(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Fixtures.opZoo.appendingPathComponent("models/\(name).tflite")))
    }

    static func interpreter(_ bytes: [UInt8], memoryLimit: Int? = nil) throws -> Interpreter {
        var options = Interpreter.Options(threadCount: 1)
        if let memoryLimit { options.memoryLimit = memoryLimit }
        let interpreter = try Interpreter(model: Model(bytes: bytes), options: options)
        try interpreter.allocateTensors()
        return interpreter
    }

    static func golden(_ file: String) throws -> [String] {
        let a = try NPYArray(contentsOf: Fixtures.opZoo.appendingPathComponent(file).path)
        return try #require(a.byteStrings).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func stringInputsAndOutputsThroughTheAPI() throws {
        let i = try Self.interpreter(Self.model("opzoo_skip_gram_n3_skip0"))
        #expect(try i.input(at: 0).dataType == .string)
        try i.copy(["the quick  brown fox\tjumps over the\nlazy dog"], toInputAt: 0)
        #expect(try i.input(at: 0).strings == ["the quick  brown fox\tjumps over the\nlazy dog"])
        try i.invoke()
        let y = try i.output(at: 0)
        #expect(y.strings == (try Self.golden("cases/opzoo_skip_gram_n3_skip0/out0.npy")))
        #expect(y.shape == [y.strings?.count ?? -1])
        // A second sentence with fewer words than the n-gram gives an empty vector.
        try i.copy(["just two"], toInputAt: 0)
        try i.invoke()
        #expect(try i.output(at: 0).shape == [0])
    }

    @Test func anUnwrittenStringInputHoldsEmptyStrings() throws {
        let i = try Self.interpreter(Self.model("opzoo_skip_gram_n1_skip0"))
        #expect(try i.input(at: 0).strings == [""])
        try i.invoke()
        #expect(try i.output(at: 0).strings == [])
    }

    @Test func refusesMalformedOrMiscountedStringInputs() throws {
        let i = try Self.interpreter(Self.model("opzoo_skip_gram_n1_skip0"))
        #expect(throws: InterpreterError.self) { try i.copy(["one", "two"], toInputAt: 0) }
        #expect(throws: InterpreterError.self) { try i.copy([UInt8](repeating: 0xFF, count: 16), toInputAt: 0) }
        #expect(throws: InterpreterError.self) { try i.copy([1, 0, 0, 0, 12, 0, 0, 0, 200, 0, 0, 0], toInputAt: 0) }
        let numeric = try Self.interpreter(Self.model("opzoo_hashtable_int64_to_string"))
        #expect(throws: InterpreterError.invalidDataType(tensor: "ids", expected: .int64, actual: .string)) {
            try numeric.copy(["7"], toInputAt: 0)
        }
    }

    @Test func hashTablesPersistAcrossInvocations() throws {
        let i = try Self.interpreter(Self.model("opzoo_hashtable_call_once_init"))
        for ids: [Int64] in [[300, 5, 100, 200], [200, 200, 1, 300]] {
            try i.copy(ids, toInputAt: 0)
            try i.invoke()
        }
        // The initialiser ran once; the table still answers from the first fill.
        let golden = try Self.golden("cases/opzoo_hashtable_call_once_init/out0.npy")
        let byID = ["300": golden[0], "100": golden[2], "200": golden[3]]
        #expect(try i.output(at: 0).strings == [byID["200"]!, byID["200"]!, golden[1], byID["300"]!])
        #expect(try i.output(at: 1).values(as: Int64.self) == [3])
    }

    /// Overwrites the first occurrence of `pattern` in `bytes` with `replacement`.
    static func patched(_ bytes: [UInt8], _ pattern: [UInt8], _ replacement: [UInt8]) throws -> [UInt8] {
        let at = try #require((0...(bytes.count - pattern.count)).first { Array(bytes[$0..<($0 + pattern.count)]) == pattern })
        var out = bytes
        out.replaceSubrange(at..<(at + replacement.count), with: replacement)
        return out
    }

    @Test func aMalformedStringConstantFailsTheNodeThatReadsIt() throws {
        // The five table values: count 5, first offset 28. Claim more strings than stored.
        let header = PackedStringsTests.int32s([5, 28])
        let bad = try Self.patched(Self.model("opzoo_hashtable_int64_to_string"), header, PackedStringsTests.int32s([1000, 28]))
        let i = try Self.interpreter(bad)
        try i.copy([Int64](repeating: 7, count: 6), toInputAt: 0)
        #expect(throws: InterpreterError.self) { try i.invoke() }
    }

    /// HASHTABLE then HASHTABLE_FIND with no import: a table of `tableKey` to `tableValue`
    /// read with `keyType` keys into a `valueType` output.
    static func tableWithoutImport(tableKey: Schema.TensorType = .int64, tableValue: Schema.TensorType = .string,
                                   keyType: Schema.TensorType = .int64, valueType: Schema.TensorType = .string) -> TinyModel {
        var m = TinyModel()
        m.codes = [TinyModel.Code(.hashtable), TinyModel.Code(.hashtableFind)]
        let fallback = valueType == .string ? PackedStrings.encode(["?"]) : PackedStringsTests.int32s([-1, -1])
        m.buffers = [TinyModel.Buffer(), TinyModel.Buffer(data: fallback)]
        m.subgraphs[0].tensors = [
            TinyModel.Tensor(shape: [1], type: .resource, name: "handle"),
            TinyModel.Tensor(shape: [2], type: keyType, name: "keys"),
            TinyModel.Tensor(shape: [1], type: valueType, buffer: 1, name: "default"),
            TinyModel.Tensor(shape: [2], type: valueType, name: "found"),
        ]
        m.subgraphs[0].inputs = [1]
        m.subgraphs[0].outputs = [3]
        m.subgraphs[0].operators = [
            TinyModel.Operator(opcodeIndex: 0, inputs: [], outputs: [0],
                               options: .hashtableOptions(.init(tableId: 1, keyDtype: tableKey, valueDtype: tableValue))),
            TinyModel.Operator(opcodeIndex: 1, inputs: [0, 1, 2], outputs: [3], options: .hashtableFindOptions(.init())),
        ]
        return m
    }

    static func expectFindFails(_ m: TinyModel, mentioning words: String) throws {
        let i = try Interpreter(model: Model(bytes: m.bytes()))
        try i.allocateTensors()
        do {
            try i.invoke()
            Issue.record("invoke succeeded")
        } catch let InterpreterError.invokeFailed(_, op, reason) {
            #expect(op == "HASHTABLE_FIND")
            #expect(reason.contains(words), "\(reason)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func findBeforeImportAndMismatchedTablesFail() throws {
        try Self.expectFindFails(Self.tableWithoutImport(), mentioning: "before HASHTABLE_IMPORT")
        try Self.expectFindFails(Self.tableWithoutImport(keyType: .string, valueType: .int64), mentioning: "maps INT64 to STRING")
        let floats = Self.tableWithoutImport(tableKey: .float32)
        #expect(throws: InterpreterError.self) {
            try Interpreter(model: Model(bytes: floats.bytes())).allocateTensors()
        }
    }

    @Test func elementMovingOpsMoveStringsAndCheckTheirIndices() throws {
        let i = try Self.interpreter(Self.model("opzoo_strings_gather_vocabulary"))
        try i.copy([Int32(1), 2, 4, 3, 0, 1], toInputAt: 0)
        try i.invoke()
        #expect(try i.output(at: 0).strings == (try Self.golden("cases/opzoo_strings_gather_vocabulary/out0.npy")))
        try i.copy([Int32(1), 2, 5, 3, 0, 1], toInputAt: 0)
        do {
            try i.invoke()
            Issue.record("invoke succeeded")
        } catch let InterpreterError.invokeFailed(_, op, _) {
            #expect(op == "GATHER")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func opsWithoutStringKernelsRefuseStrings() throws {
        var m = TinyModel()
        m.codes = [TinyModel.Code(.add)]
        m.subgraphs[0].tensors = [TinyModel.Tensor(type: .string), TinyModel.Tensor(type: .string), TinyModel.Tensor(type: .string)]
        let i = try Interpreter(model: Model(bytes: m.bytes()))
        do {
            try i.allocateTensors()
            Issue.record("allocated")
        } catch let InterpreterError.unsupportedOperator(_, op, reason) {
            #expect(op == "ADD")
            #expect(reason.contains("string"), "\(reason)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func skipGramsStopAtTheMemoryLimit() throws {
        // Up to 3-grams skipping one word, over 20,000 words: 140,000 strings, some 3 MB.
        let i = try Self.interpreter(Self.model("opzoo_skip_gram_n3_skip1_all"), memoryLimit: 1 << 20)
        try i.copy([(0..<20_000).map { "w\($0)" }.joined(separator: " ")], toInputAt: 0)
        do {
            try i.invoke()
            Issue.record("invoke succeeded")
        } catch InterpreterError.memoryLimitExceeded(_, let limit) {
            #expect(limit == 1 << 20)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
