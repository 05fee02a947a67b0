import Foundation
import Testing
import TestSupport
@testable import TFLiteRuntime

/// Values no converter writes, fed to the op-zoo models of the value-dependent ops: each is a
/// thrown error naming the node (or, where the op defines an answer, that answer), never a
/// write outside a tensor. The models are those whose goldens OpZooConformanceTests checks.
@Suite struct OpZooHostileInputTests {
    static func interpreter(_ name: String, memoryLimit: Int? = nil) throws -> Interpreter {
        let bytes = [UInt8](try Data(contentsOf: Fixtures.opZoo.appendingPathComponent("models/\(name).tflite")))
        var options = Interpreter.Options()
        if let memoryLimit { options.memoryLimit = memoryLimit }
        let interpreter = try Interpreter(model: Model(bytes: bytes), options: options)
        try interpreter.allocateTensors()
        return interpreter
    }

    static func bytes<T>(_ values: [T]) -> [UInt8] { values.withUnsafeBytes { Array($0) } }

    /// Expects `invoke()` to fail at node 0 for a reason mentioning `words`.
    static func expectInvokeFails(_ interpreter: Interpreter, mentioning words: String) {
        do {
            try interpreter.invoke()
            Issue.record("invoke succeeded")
        } catch let InterpreterError.invokeFailed(node, _, reason) {
            #expect(node == 0)
            #expect(reason.contains(words), "\(reason)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func sparseToDenseRefusesAnIndexOutsideTheOutput() throws {
        let i = try Self.interpreter("opzoo_sparse_to_dense_float32_vector")
        try i.copy(Self.bytes([Int32(1), 8, 6]), toInputAt: 0)
        try i.copy(Self.bytes([Float(1), 2, 3]), toInputAt: 1)
        Self.expectInvokeFails(i, mentioning: "index 8")
    }

    @Test func sparseToDenseRefusesANegativeRunTimeShape() throws {
        let i = try Self.interpreter("opzoo_sparse_to_dense_int64_runtime_shape")
        try i.copy(Self.bytes([Int32(0), 1]), toInputAt: 0)
        try i.copy(Self.bytes([Int32(-5)]), toInputAt: 1)
        try i.copy(Self.bytes([Int64(1), 2]), toInputAt: 2)
        Self.expectInvokeFails(i, mentioning: "negative")
    }

    @Test func embeddingLookupSparseRefusesAnIdOutsideTheTable() throws {
        let i = try Self.interpreter("opzoo_embedding_lookup_sparse_sum")
        try i.copy(Self.bytes([Int32](repeating: 0, count: 6) + [6]), toInputAt: 0)
        Self.expectInvokeFails(i, mentioning: "index 6")
    }

    @Test func embeddingLookupSparseRefusesACoordinateOutsideTheDenseShape() throws {
        let i = try Self.interpreter("opzoo_embedding_lookup_sparse_mean")
        try i.copy(Self.bytes([Int32](repeating: 0, count: 7)), toInputAt: 0)
        try i.copy(Self.bytes([Int32](repeating: 0, count: 12) + [Int32.max, 0]), toInputAt: 1)
        Self.expectInvokeFails(i, mentioning: "index \(Int32.max)")
    }

    @Test func dynamicUpdateSliceClampsExtremeStarts() throws {
        let i = try Self.interpreter("opzoo_dynamic_update_slice_float32_clamped")
        let operand = (0..<24).map(Float.init), update = [Float](repeating: -1, count: 6)
        try i.copy(Self.bytes(operand), toInputAt: 0)
        try i.copy(Self.bytes(update), toInputAt: 1)
        try i.copy(Self.bytes([Int32.min, Int32.max]), toInputAt: 2)
        try i.invoke()
        let y = try i.output(at: 0).data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // Rows 0-1, columns 3-5 (the last three of six) hold the update.
        var expected = operand
        for r in 0..<2 { for col in 3..<6 { expected[r * 6 + col] = -1 } }
        #expect(y == expected)
    }

    @Test func randomOpsRefuseNegativeAndOversizedShapes() throws {
        let negative = try Self.interpreter("opzoo_random_uniform_runtime_shape")
        try negative.copy(Self.bytes([Int32(2), -3]), toInputAt: 0)
        Self.expectInvokeFails(negative, mentioning: "negative")

        let huge = try Self.interpreter("opzoo_random_uniform_runtime_shape", memoryLimit: 16 << 20)
        try huge.copy(Self.bytes([Int32.max, Int32.max]), toInputAt: 0)
        #expect(throws: InterpreterError.self) { try huge.invoke() }
    }

    @Test func numericVerifyFailsWhenTheReferenceIsOutOfTolerance() throws {
        let i = try Self.interpreter("opzoo_numeric_verify_int8")
        try i.copy([UInt8](repeating: 0, count: 24), toInputAt: 0)
        try i.copy(Self.bytes([Float](repeating: 100, count: 24)), toInputAt: 1)
        Self.expectInvokeFails(i, mentioning: "tolerance")
    }

    @Test func hashtableLookupMissesGiveZeroRows() throws {
        let i = try Self.interpreter("opzoo_hashtable_lookup_float32")
        try i.copy(Self.bytes([Int32.min, Int32.max, 0, -1, 2]), toInputAt: 0)
        try i.invoke()
        #expect(try i.output(at: 1).data == [0, 0, 0, 0, 0])
        #expect(try i.output(at: 0).data.allSatisfy { $0 == 0 })
    }
}
