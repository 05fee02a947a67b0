import Synchronization

/// What can stop an invocation before it ends: a caller's ``Interpreter/Cancellation`` and
/// the per-invoke time limit of ``Interpreter/Options/timeLimit``. Executors check it between
/// nodes and loops between iterations, so a model that never finishes (a WHILE whose condition
/// stays true) can still be stopped; a single kernel is never interrupted.
final class InvocationControl: Sendable {
    private let cancelled = Atomic<Bool>(false)
    let timeLimit: Duration?
    /// When the invocation in progress must stop; set by ``begin()`` on the invoking thread.
    private nonisolated(unsafe) var deadline: ContinuousClock.Instant?

    init(timeLimit: Duration?) {
        self.timeLimit = timeLimit
    }

    /// Starts an invocation: clears an earlier cancellation (as LiteRT does, a cancel that
    /// arrives before `invoke()` does not stop it) and starts the clock.
    func begin() {
        cancelled.store(false, ordering: .relaxed)
        deadline = timeLimit.map { ContinuousClock.now + $0 }
    }

    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    /// Throws when the invocation must stop.
    @inline(__always)
    func check() throws(InterpreterError) {
        if cancelled.load(ordering: .relaxed) { throw .cancelled }
        if let deadline, ContinuousClock.now >= deadline, let timeLimit {
            throw .timeLimitExceeded(limit: timeLimit)
        }
    }
}

extension Interpreter {
    /// Stops the invocation in progress of one interpreter, from any thread or task: that
    /// `invoke()` throws ``InterpreterError/cancelled`` at its next node (or loop iteration).
    /// A cancel with no invocation in progress has no effect on later ones.
    public struct Cancellation: Sendable {
        let control: InvocationControl

        public func cancel() {
            control.cancel()
        }
    }

    /// A handle that cancels this interpreter's invocations; it can be sent to another thread.
    public var cancellation: Cancellation { Cancellation(control: environment.control) }
}

extension InterpreterError {
    /// Errors that end a whole invocation and pass through control-flow nodes unwrapped.
    var stopsInvocation: Bool {
        switch self {
        case .cancelled, .timeLimitExceeded: return true
        default: return false
        }
    }
}
