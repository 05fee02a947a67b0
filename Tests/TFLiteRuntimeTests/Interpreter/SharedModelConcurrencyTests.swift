import Foundation
import Testing
import TestSupport
import TFLiteRuntime

/// One loaded `Model` shared by interpreters on several threads, each with its own worker
/// pool, as a server answering requests in parallel would use it. The model is immutable after
/// load and every interpreter owns its arena, so the outputs must be bit-identical to one
/// interpreter on one thread. `Scripts/sanitize.sh thread` runs this suite under
/// ThreadSanitizer, which is what shows no state is shared by accident.
@Suite struct SharedModelConcurrencyTests {
    /// A quantised classifier, a float detector and an SSD with its post-processing op.
    static let models = ["mobilenet_v2_int8.tflite", "face_detection_short_range.tflite", "ssd_detector_int8.tflite"]
    static let callers = 4
    static let invocationsPerCaller = 3

    @Test(arguments: models)
    func interpretersOnSeveralThreadsMatchOneThread(_ name: String) throws {
        let model = try Model(path: Fixtures.corpusFile("models/" + name).path)
        let expected = try (0..<Self.invocationsPerCaller).map { try Self.outputs(of: model, threads: 1, input: $0) }
        let results = Results(count: Self.callers)
        DispatchQueue.concurrentPerform(iterations: Self.callers) { caller in
            results.store(caller) {
                try (0..<Self.invocationsPerCaller).map { try Self.outputs(of: model, threads: 2, input: $0) }
            }
        }
        for caller in 0..<Self.callers {
            let got = try results.take(caller)
            #expect(got == expected, "caller \(caller) of \(name)")
        }
    }

    /// Every output's bytes after one invocation on input number `input` (a fixed pattern per
    /// number, so each caller feeds the same sequence).
    static func outputs(of model: Model, threads: Int, input: Int) throws -> [[UInt8]] {
        let interpreter = try Interpreter(model: model, options: .init(threadCount: threads))
        try interpreter.allocateTensors()
        for i in 0..<interpreter.inputTensorCount {
            let count = try interpreter.input(at: i).data.count
            var bytes = (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 31 &+ input &* 7) % 251) }
            if try interpreter.input(at: i).dataType == .float32 {
                bytes = (0..<count / 4).map { Float(($0 &* 13 &+ input) % 97) / 97 }.withUnsafeBytes { Array($0) }
            }
            try interpreter.copy(bytes, toInputAt: i)
        }
        try interpreter.invoke()
        return try (0..<interpreter.outputTensorCount).map { [UInt8](try interpreter.output(at: $0).data) }
    }

    /// Per-caller slots written from the worker threads.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [Result<[[[UInt8]]], any Error>?]

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        func store(_ caller: Int, _ body: () throws -> [[[UInt8]]]) {
            let result = Result { try body() }
            lock.withLock { slots[caller] = result }
        }

        func take(_ caller: Int) throws -> [[[UInt8]]] {
            try #require(lock.withLock { slots[caller] }).get()
        }
    }
}
