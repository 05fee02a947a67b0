import Kernels

/// A tensor as an op's prepare step sees it.
struct TensorInfo {
    let index: Int
    let type: DataType
    let shape: [Int]
    let quantization: QuantizationParameters?
    /// Per-block scales of blockwise-quantised weights.
    var blockwise: BlockwiseQuantization? = nil
    /// The bytes of a constant tensor (weights, or a tensor folded earlier); nil otherwise.
    let constantData: UnsafeRawPointer?

    var isConstant: Bool { constantData != nil }
    var rank: Int { shape.count }
    var elementCount: Int { shape.reduce(1, *) }

    /// The constant's elements as `T`; nil for non-constant tensors.
    func constantValues<T: BitwiseCopyable>(as: T.Type) -> [T]? {
        guard let constantData else { return nil }
        return (0..<elementCount).map { constantData.loadUnaligned(fromByteOffset: $0 * MemoryLayout<T>.stride, as: T.self) }
    }
}

/// The run-time view of a subgraph's memory handed to every kernel: one data pointer per
/// tensor (stable between allocations) and the shared scratch block.
struct InvokeContext {
    let pointers: UnsafeMutablePointer<UnsafeMutableRawPointer>
    let scratch: UnsafeMutableRawPointer
    let threads: ThreadPool
    /// The running subgraph, for kernels whose output shape depends on values (they resize
    /// their output before writing it) and for control flow.
    unowned(unsafe) let executor: SubgraphExecutor

    /// Gives dynamic tensor `tensor` the shape `shape` (memory grows as needed) and returns its
    /// new data pointer. Only for outputs declared with `setOutputDynamic` at prepare.
    func resize(_ tensor: Int, to shape: [Int]) throws(InterpreterError) -> UnsafeMutableRawPointer {
        try executor.resizeDynamic(tensor, to: shape)
    }

    /// The current shape of a tensor (for kernels reading dynamic inputs).
    func shape(_ tensor: Int) -> [Int] { executor.tensors[tensor].shape }

    @inline(__always)
    func raw(_ tensor: Int) -> UnsafeMutableRawPointer { pointers[tensor] }

    @inline(__always)
    func data<T>(_ tensor: Int, as: T.Type) -> UnsafeMutablePointer<T> {
        pointers[tensor].assumingMemoryBound(to: T.self)
    }

    /// Calls `body` with the data pointers of `tensors`, each converted by `pointer`, gathered
    /// in stack memory: kernels over a list of tensors (CONCATENATION, SPLIT, ...) take them
    /// this way because building an array at every invoke would allocate.
    @inline(__always)
    func withPointers<P, R>(to tensors: [Int], _ pointer: (UnsafeMutableRawPointer) -> P,
                            _ body: (UnsafeBufferPointer<P>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: P.self, capacity: tensors.count) { buffer in
            for (k, t) in tensors.enumerated() { buffer.initializeElement(at: k, to: pointer(pointers[t])) }
            return body(UnsafeBufferPointer(buffer))
        }
    }
}

/// A typed pointer for an optional tensor index.
@inline(__always)
func optionalData<T>(_ c: InvokeContext, _ index: Int?, as: T.Type) -> UnsafePointer<T>? {
    index.map { UnsafePointer(c.data($0, as: T.self)) }
}

/// A prepared node: runs the bound kernel on the tensors its prepare step proved valid.
typealias NodeKernel = (InvokeContext) throws(InterpreterError) -> Void

/// Everything an op's prepare step may read about its node and the shapes flowing into it,
/// and the shapes and scratch space it declares for its outputs.
struct PrepareContext {
    let nodeIndex: Int
    let opName: String
    let options: Schema.BuiltinOptions?
    /// The operator's second options union, where StableHLO ops and the later builtins
    /// (DILATE, REDUCE_WINDOW) keep their parameters.
    var options2: Schema.BuiltinOptions2?
    let customOptions: UnsafeRawBufferPointer?
    /// Tensor indices; -1 marks an omitted optional input.
    let inputIndices: [Int]
    let outputIndices: [Int]
    /// The operator's intermediate tensors: tensors no kernel reads, which converters add to
    /// carry quantisation parameters (the integer LSTM's gate and hidden scales).
    var intermediateIndices: [Int] = []
    unowned let executor: SubgraphExecutor
    /// The largest scratch block any request asked for, in bytes.
    private(set) var scratchBytes = 0
    /// What the fusion pass folded into this node, which its prepare step applies; only the
    /// fusions its registration accepts (``OpRegistration/fusions``) are ever set.
    var fusions = NodeFusions()
    /// The name of the kernel prepare picked (e.g. `conv2d.i8.gathered/avx512vnni`), which
    /// profiles and `tflite inspect` print beside the node; nil for the op's only kernel, which
    /// ``resolvedKernelName`` names.
    var kernelName: String?
    /// The node's floating-point operations (2 x multiply-accumulates for the compute-heavy
    /// ops), which profiles turn into a rate; nil where that is not well defined.
    var flops: Int?

    init(nodeIndex: Int, opName: String, options: Schema.BuiltinOptions?, customOptions: UnsafeRawBufferPointer?,
         inputIndices: [Int], outputIndices: [Int], executor: SubgraphExecutor) {
        self.nodeIndex = nodeIndex
        self.opName = opName
        self.options = options
        self.customOptions = customOptions
        self.inputIndices = inputIndices
        self.outputIndices = outputIndices
        self.executor = executor
    }

    var inputCount: Int { inputIndices.count }
    var outputCount: Int { outputIndices.count }

    /// An error naming this node.
    func invalid(_ reason: String) -> InterpreterError {
        .invalidNode(node: nodeIndex, op: opName, reason: reason)
    }

    /// An error saying this node's configuration is not supported.
    func unsupported(_ reason: String) -> InterpreterError {
        .unsupportedOperator(node: nodeIndex, op: opName, reason: reason)
    }

    /// Requires between `inputs` and `outputs` counts.
    func expect(inputs: ClosedRange<Int>, outputs: ClosedRange<Int>) throws(InterpreterError) {
        guard inputs.contains(inputCount) else { throw invalid("expects \(inputs) inputs, has \(inputCount)") }
        guard outputs.contains(outputCount) else { throw invalid("expects \(outputs) outputs, has \(outputCount)") }
    }

    /// Input `i`, which must be present.
    func input(_ i: Int) throws(InterpreterError) -> TensorInfo {
        guard let t = optionalInput(i) else { throw invalid("input \(i) is missing") }
        return t
    }

    /// Input `i`, or nil when omitted (index -1 or past the list).
    func optionalInput(_ i: Int) -> TensorInfo? {
        guard i < inputIndices.count, inputIndices[i] >= 0 else { return nil }
        return executor.info(inputIndices[i])
    }

    /// Intermediate tensor `i`, or nil when the operator lists fewer.
    func intermediate(_ i: Int) -> TensorInfo? {
        guard i < intermediateIndices.count, intermediateIndices[i] >= 0 else { return nil }
        return executor.info(intermediateIndices[i])
    }

    /// Output `i` as declared by the model (its shape is updated by `setOutputShape`).
    func output(_ i: Int) throws(InterpreterError) -> TensorInfo {
        guard i < outputIndices.count, outputIndices[i] >= 0 else { throw invalid("output \(i) is missing") }
        return executor.info(outputIndices[i])
    }

    /// Declares the shape output `i` will have.
    func setOutputShape(_ i: Int, _ shape: [Int]) throws(InterpreterError) {
        guard i < outputIndices.count, outputIndices[i] >= 0 else { throw invalid("output \(i) is missing") }
        try executor.setShape(outputIndices[i], shape, node: self)
    }

    /// Declares that output `i`'s shape depends on input values: it gets memory of its own at
    /// run time, where the kernel must call `InvokeContext.resize` before writing it, and the
    /// nodes that read it are prepared again at each invocation.
    func setOutputDynamic(_ i: Int) throws(InterpreterError) {
        guard i < outputIndices.count, outputIndices[i] >= 0 else { throw invalid("output \(i) is missing") }
        executor.tensors[outputIndices[i]].isDynamic = true
    }

    /// Reserves scratch memory for the kernel; all nodes share one block, so a kernel may only
    /// use it while it runs.
    mutating func requestScratch(bytes: Int) {
        scratchBytes = max(scratchBytes, bytes)
    }

    /// Requires input `i` to have one of `types`; returns its type.
    @discardableResult
    func requireType(input i: Int, _ types: DataType...) throws(InterpreterError) -> DataType {
        let t = try input(i).type
        guard types.contains(t) else {
            throw unsupported("input \(i) has type \(t); supported: \(types.map(\.name).joined(separator: ", "))")
        }
        return t
    }
}
