#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Kernels

extension Interpreter {
    /// How an interpreter runs.
    public struct Options: Sendable {
        /// Worker threads for the kernels; nil means one per core.
        public var threadCount: Int?
        /// Upper bound on the bytes any tensor, the arena or a resize may need; a model or
        /// resize that asks for more fails with `memoryLimitExceeded` instead of allocating.
        public var memoryLimit: Int = 4 << 30
        /// Runs the plain reference kernels instead of the optimised ones (for checking one
        /// against the other; much slower).
        public var useReferenceKernels = false
        /// The widest instruction-set variant of the optimised kernels to use; nil takes the
        /// widest this CPU runs (lowered by the `TFLITE_ISA` environment variable). A variant the
        /// CPU lacks is never used: the widest supported one below it runs instead.
        public var instructionSet: InstructionSet?
        /// Wall-clock time one `invoke()` may take, checked between nodes and between loop
        /// iterations (a kernel already running finishes); past it `invoke()` throws
        /// ``InterpreterError/timeLimitExceeded(limit:)``. nil: no limit.
        public var timeLimit: Duration?
        /// Iterations one WHILE node may run in one invocation before it fails. A model is
        /// untrusted input: a condition that never turns false would otherwise loop for ever.
        /// Real models loop far less (decoders: hundreds; NMS: thousands).
        public var maxLoopIterations = 10_000_000
        /// The op table: the runtime's own operators and the custom ones added with
        /// ``addCustomOperator(_:replacingBuiltin:)``; tests can swap in another one.
        var registry: OpRegistry = .standard

        public init(threadCount: Int? = nil) {
            self.threadCount = threadCount
        }

        var resolvedThreadCount: Int {
            if let threadCount { return max(1, threadCount) }
            return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        }
    }
}
