import Foundation
import Testing
import TensorFlowLite

/// `Interpreter.Options`, `Delegate` and `Runtime`.
@Suite struct OptionsAndDelegateTests {
    final class RecordingDelegate: Delegate {}

    @Test func defaults() {
        let options = Interpreter.Options()
        #expect(options.threadCount == nil)
        #expect(options.isXNNPackEnabled == false)
    }

    @Test func equalityAndHashingFollowTheFields() {
        var a = Interpreter.Options(), b = Interpreter.Options()
        #expect(a == b)
        a.threadCount = 2
        #expect(a != b)
        b.threadCount = 2
        #expect(a == b)
        b.isXNNPackEnabled = true
        #expect(a != b)
        a.isXNNPackEnabled = true
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
    }

    @Test func interpreterKeepsWhatItWasGiven() throws {
        let plain = try Interpreter(modelPath: Corpus.modelPath("sine_float"))
        #expect(plain.options == nil)
        #expect(plain.delegates == nil)

        var options = Interpreter.Options()
        options.threadCount = 1
        options.isXNNPackEnabled = true
        let delegate = RecordingDelegate()
        let interpreter = try Interpreter(modelPath: Corpus.modelPath("sine_float"), options: options, delegates: [delegate])
        #expect(interpreter.options == options)
        #expect(interpreter.delegates?.count == 1)
        #expect(interpreter.delegates?.first === delegate)
    }

    @Test func delegatesChangeNothing() throws {
        let c = try Corpus("sine_float__x0")
        let interpreter = try Interpreter(modelPath: c.modelPath, delegates: [RecordingDelegate()])
        try interpreter.allocateTensors()
        try interpreter.copy(c.inputs[0].data, toInputAt: 0)
        try interpreter.invoke()
        let file = c.entry.outputs[0]
        #expect(matches(try interpreter.output(at: 0).data, c.goldens[0].data, dtype: file.dtype, tolerance: file.tolerance))
    }

    @Test func runtimeVersionIsSemantic() {
        let pattern = #"^(\d+)\.(\d+)\.(\d+)([+-][-.0-9A-Za-z]+)?$"#
        #expect(TensorFlowLite.Runtime.version.range(of: pattern, options: .regularExpression) != nil)
    }
}
