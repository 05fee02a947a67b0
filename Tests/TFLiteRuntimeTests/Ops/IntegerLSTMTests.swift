import Foundation
import Testing
import TestSupport
@testable import TFLiteRuntime

/// The int8 LSTM's prepare refuses what LiteRT's integer kernel cannot compute (its results
/// are checked against LiteRT by PeerConformanceTests).
@Suite struct IntegerLSTMTests {
    static let model = Fixtures.peers.appendingPathComponent("models/trained_lstm_int8.tflite")

    /// The cell state's scale (2^-12 in this model) must be a power of two: the cell update
    /// shifts by its exponent.
    @Test func cellStateScaleThatIsNotAPowerOfTwoIsRefused() throws {
        var bytes = [UInt8](try Data(contentsOf: Self.model))
        let pattern = withUnsafeBytes(of: Float(0.000244140625).bitPattern.littleEndian, Array.init)
        let at = try #require((0...(bytes.count - 4)).filter { Array(bytes[$0..<($0 + 4)]) == pattern }.only)
        bytes.replaceSubrange(at..<(at + 4), with: withUnsafeBytes(of: Float(0.0003).bitPattern.littleEndian, Array.init))
        let interpreter = try Interpreter(model: Model(bytes: bytes))
        #expect(throws: InterpreterError.unsupportedOperator(
            node: 0, op: "UNIDIRECTIONAL_SEQUENCE_LSTM", reason: "cell state scale 0.0003 must be a power of two from 2^-15 to 2^-9")) {
            try interpreter.allocateTensors()
        }
    }

    /// The output state starts at its zero point (real zero), as LiteRT resets int8 variables,
    /// and again after every allocation.
    @Test func outputStateStartsAtItsZeroPoint() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.peers.appendingPathComponent("models/dtln_noise_suppression.tflite").path)
        try interpreter.allocateTensors()
        let states = interpreter.main.tensors.indices.filter { interpreter.main.tensors[$0].isVariable && interpreter.main.tensors[$0].type == .int8 }
        try #require(states.count == 2)
        for t in states {
            let zero = try #require(interpreter.main.tensors[t].quantization).zeroPoint
            let values = UnsafeBufferPointer(start: interpreter.main.pointers[t].assumingMemoryBound(to: Int8.self), count: 128)
            #expect(values.allSatisfy { Int64($0) == zero }, "state tensor \(t)")
        }
    }
}

private extension Array {
    /// The single element, or nil when there are none or several.
    var only: Element? { count == 1 ? first : nil }
}
