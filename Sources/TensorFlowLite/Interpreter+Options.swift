internal import TFLiteRuntime

extension Interpreter {
    /// How an ``Interpreter`` is configured.
    public struct Options: Equatable, Hashable, Sendable {
        /// The most CPU threads the kernels use; nil (or a value below 1) lets the interpreter
        /// decide: one per core.
        public var threadCount: Int? = nil

        /// TensorFlowLiteSwift's switch for the XNNPACK delegate. Accepted and kept, with no
        /// effect: this runtime always runs its own optimised kernels (chosen for the CPU's
        /// instruction set), which is what XNNPACK would add.
        public var isXNNPackEnabled: Bool = false

        /// Options with the default values: threads chosen by the interpreter, XNNPACK off.
        public init() {}

        /// The runtime's options for these.
        var runtimeOptions: TFLiteRuntime.Interpreter.Options {
            TFLiteRuntime.Interpreter.Options(threadCount: threadCount.flatMap { $0 > 0 ? $0 : nil })
        }
    }
}

/// TensorFlowLiteSwift's earlier name for ``Interpreter/Options``.
@available(*, deprecated, renamed: "Interpreter.Options")
public typealias InterpreterOptions = Interpreter.Options
