import Foundation
import Synchronization
import Testing
@testable import TFLiteRuntime

/// A WHILE whose condition never turns false: LiteRT would loop for ever; here the loop
/// bound, the time limit and a cancellation from another thread each end the invocation
/// with their own error.
@Suite struct InvocationLimitTests {
    /// Main graph: WHILE over one bool. Condition and body return their input unchanged, so
    /// a `true` input loops for ever and a `false` one never enters the loop.
    static func endlessLoop() throws -> Model {
        var tiny = TinyModel()
        tiny.codes = [TinyModel.Code(.while)]
        let flag = TinyModel.Tensor(shape: [1], type: .bool, name: "flag")
        let passThrough = TinyModel.Subgraph(tensors: [flag], inputs: [0], outputs: [0], operators: [])
        tiny.subgraphs = [
            TinyModel.Subgraph(tensors: [flag, TinyModel.Tensor(shape: [1], type: .bool, name: "out")],
                               inputs: [0], outputs: [1],
                               operators: [TinyModel.Operator(opcodeIndex: 0, inputs: [0], outputs: [1],
                                                              options: .whileOptions(Schema.WhileOptions(condSubgraphIndex: 1, bodySubgraphIndex: 2)))]),
            passThrough, passThrough,
        ]
        return try Model(bytes: tiny.bytes())
    }

    static func interpreter(_ options: Interpreter.Options, loops: Bool = true) throws -> Interpreter {
        let interpreter = try Interpreter(model: try endlessLoop(), options: options)
        try interpreter.allocateTensors()
        try interpreter.copy([UInt8(loops ? 1 : 0)], toInputAt: 0)
        return interpreter
    }

    @Test func aFalseConditionEndsAtOnce() throws {
        let interpreter = try Self.interpreter(Interpreter.Options(), loops: false)
        try interpreter.invoke()
        #expect(try interpreter.output(at: 0).data == [0])
    }

    @Test func theLoopBoundEndsAnEndlessWhile() throws {
        var options = Interpreter.Options()
        options.maxLoopIterations = 1_000
        let interpreter = try Self.interpreter(options)
        #expect {
            try interpreter.invoke()
        } throws: { error in
            guard case .invokeFailed(_, "WHILE", let reason)? = error as? InterpreterError else { return false }
            return reason.contains("more than 1000 iterations")
        }
    }

    @Test func theTimeLimitEndsAnEndlessWhile() throws {
        var options = Interpreter.Options()
        options.timeLimit = .milliseconds(50)
        let interpreter = try Self.interpreter(options)
        let start = ContinuousClock.now
        #expect(throws: InterpreterError.timeLimitExceeded(limit: .milliseconds(50))) { try interpreter.invoke() }
        // Stopped near the limit, not by the (much later) loop bound.
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func aCancellationFromAnotherThreadEndsAnEndlessWhile() throws {
        let interpreter = try Self.interpreter(Interpreter.Options())
        let cancellation = interpreter.cancellation
        let finished = Atomic<Bool>(false)
        // Cancels until the invocation ends: a cancel that lands before invoke() starts is
        // cleared by it, so one cancel alone could race the start.
        let canceller = Thread {
            while !finished.load(ordering: .relaxed) {
                usleep(5_000)
                cancellation.cancel()
            }
        }
        canceller.start()
        #expect(throws: InterpreterError.cancelled) { try interpreter.invoke() }
        finished.store(true, ordering: .relaxed)
    }

    @Test func aCancelBeforeInvokeDoesNotStopTheNextOne() throws {
        let interpreter = try Self.interpreter(Interpreter.Options(), loops: false)
        interpreter.cancellation.cancel()
        try interpreter.invoke()
    }
}
