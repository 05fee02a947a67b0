#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The time one node took in a profiled run.
public struct NodeTiming: Sendable {
    /// Node index in the subgraph.
    public let node: Int
    /// Op name (`CONV_2D`, or a custom code).
    public let op: String
    /// The kernel the node runs: an optimised one with its instruction-set variant
    /// (`conv2d.f32.im2col/avx512`), or a reference one (`mean.f32.reference`).
    public let kernel: String?
    /// Wall time in nanoseconds.
    public let nanoseconds: UInt64
    /// Floating-point (or multiply-accumulate x2) operations of the node, for the ops where
    /// that is well defined (convolutions, fully connected, batch matmul); nil otherwise.
    public let flops: Int?
    /// The shape of the node's first output after the run (empty when it has none).
    public let outputShape: [Int]
}

/// Monotonic nanoseconds.
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

extension SubgraphExecutor {
    /// Runs like `invoke()` and times every node.
    func invokeProfiled() throws(InterpreterError) -> [NodeTiming] {
        guard isAllocated else { throw .tensorsNotAllocated }
        let context = invokeContext
        var timings: [NodeTiming] = []
        timings.reserveCapacity(steps.count)
        let operators = model.schema.subgraphs[subgraphIndex].operators
        for step in steps {
            try environment.control.check()
            let start = monotonicNanoseconds()
            if let kernel = step.kernel { try kernel(context) } else { try runDeferred(step.node, context) }
            let elapsed = monotonicNanoseconds() - start
            let op = operators[step.node]
            let name = model.operatorKind(ofCode: Int(op.opcodeIndex)).name
            let shape = outputIndices(ofNode: step.node).first.flatMap { $0 >= 0 ? tensors[$0].shape : nil } ?? []
            timings.append(NodeTiming(node: step.node, op: name, kernel: kernelNames[step.node], nanoseconds: elapsed,
                                      flops: nodeFlops[step.node], outputShape: shape))
        }
        return timings
    }
}

extension Interpreter {
    /// Runs the model once, timing every node (for `tflite bench --profile`).
    public func invokeProfiled() throws(InterpreterError) -> [NodeTiming] {
        environment.control.begin()
        return try main.invokeProfiled()
    }
}

extension SignatureRunner {
    /// Runs the signature's subgraph once, timing every node.
    public func invokeProfiled() throws(InterpreterError) -> [NodeTiming] {
        executor.environment.control.begin()
        return try executor.invokeProfiled()
    }
}
