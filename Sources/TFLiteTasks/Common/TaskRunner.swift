import Foundation
import TFLiteRuntime

/// One interpreter behind a lock: a task object may be called from any thread or task, and
/// the interpreter underneath runs one call at a time.
final class TaskRunner: @unchecked Sendable {
    let interpreter: Interpreter
    private let lock = NSLock()

    /// `threadCount` nil gives the interpreter one worker thread per core.
    init(model: Model, threadCount: Int? = nil) throws(TaskError) {
        do {
            interpreter = try Interpreter(model: model, options: .init(threadCount: threadCount))
            try interpreter.allocateTensors()
        } catch {
            throw .runtime("cannot prepare the model: \(error)")
        }
    }

    /// The interpreter's input and output tensors, for a task to check against what it needs.
    func tensors() throws(TaskError) -> (inputs: [Tensor], outputs: [Tensor]) {
        do {
            return (try (0..<interpreter.inputTensorCount).map { try interpreter.input(at: $0) },
                    try (0..<interpreter.outputTensorCount).map { try interpreter.output(at: $0) })
        } catch { throw .runtime("\(error)") }
    }

    /// Runs `body` with exclusive use of the interpreter; runtime errors become `TaskError`.
    func withInterpreter<T>(_ body: (Interpreter) throws -> T) throws(TaskError) -> T {
        lock.lock()
        defer { lock.unlock() }
        do { return try body(interpreter) } catch let e as TaskError { throw e } catch {
            throw .runtime("inference failed: \(error)")
        }
    }
}
