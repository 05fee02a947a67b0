import Kernels

/// Runs one subgraph of a model: owns its tensors' shapes and memory, the prepared kernels
/// and the arena. `allocate()` does all checking and planning; `invoke()` only runs kernels.
final class SubgraphExecutor {
    let environment: ExecutionEnvironment
    let subgraphIndex: Int
    var model: Model { environment.model }
    var registry: OpRegistry { environment.registry }
    var threads: ThreadPool { environment.threads }
    var memoryLimit: Int { environment.memoryLimit }
    var kernelChoice: KernelChoice { environment.kernelChoice }

    var tensors: [TensorRecord]
    let inputs: [Int]
    let outputs: [Int]

    /// The nodes left to run at invoke time (folded nodes are gone), in execution order.
    var steps: [Step] = []
    /// The kernel each prepared node runs, by node (see `PrepareContext.resolvedKernelName`).
    var kernelNames: [Int: String] = [:]
    /// The floating-point operations of each prepared node, where prepare counted them.
    var nodeFlops: [Int: Int] = [:]
    /// Which nodes run where and what each took over from the nodes folded into it (see
    /// ``FusionPass``); set by `allocate()`.
    var fusion = FusionPlan()
    var arena: AlignedBuffer?
    var scratch: AlignedBuffer?
    /// Working memory prepare steps share (``staging(byteCount:)``), released when `allocate()`
    /// ends and after a node prepared at run time.
    private var prepareStaging: AlignedBuffer?
    /// Fallback address for zero-sized tensors, so no data pointer is ever null.
    let emptyBlock = AlignedBuffer(byteCount: 0)
    /// One data pointer per tensor, rewritten by `allocate()`.
    let pointers: UnsafeMutablePointer<UnsafeMutableRawPointer>
    var isAllocated = false
    /// Whether ``checkDataflow()`` has passed (the graph's structure never changes).
    var isDataflowChecked = false
    /// Planning statistics of the last allocation.
    var arenaSize = 0
    var plannedTensorBytes = 0

    init(environment: ExecutionEnvironment, subgraph index: Int) {
        self.environment = environment
        self.subgraphIndex = index
        let model = environment.model
        let sg = model.schema.subgraphs[index]
        inputs = sg.inputs.map(Int.init)
        outputs = sg.outputs.map(Int.init)
        var records: [TensorRecord] = []
        records.reserveCapacity(sg.tensors.count)
        let graphInputs = Set(inputs)
        for (t, tensor) in sg.tensors.enumerated() {
            // An input's buffer data is ignored: the caller writes inputs, and over a constant it
            // would write into the mapped file (or the weights every interpreter shares).
            let data = graphInputs.contains(t) ? nil : model.constantData(subgraph: index, tensor: t)
            var record = TensorRecord(
                name: tensor.name ?? "tensor \(t)", type: DataType(tensor.type), modelShape: tensor.shape.map(Int.init),
                shapeSignature: tensor.shapeSignature.isEmpty ? nil : tensor.shapeSignature.map(Int.init),
                quantization: QuantizationParameters(tensor.quantization, rank: tensor.shape.count),
                blockwise: BlockwiseQuantization(tensor.quantization), isVariable: tensor.isVariable,
                isWeight: (data?.count ?? 0) > 0)
            if record.type == .string, let data, data.count > 0 { record.stringByteCount = data.count }
            if let data, let base = data.baseAddress, data.count > 0 {
                let align = record.type.byteSize ?? 1
                if tensor.sparsity == nil, Int(bitPattern: base) % align == 0 {
                    record.storage = .constant(base)
                } else {
                    // Kernels read typed elements, so weights at an unaligned offset (and packed
                    // sparse weights, which DENSIFY reads) are copied once into aligned memory.
                    let copy = AlignedBuffer(byteCount: data.count)
                    copy.pointer.copyMemory(from: base, byteCount: data.count)
                    record.storage = .owned(copy)
                }
            }
            records.append(record)
        }
        tensors = records
        pointers = .allocate(capacity: max(records.count, 1))
        pointers.initialize(repeating: emptyBlock.pointer, count: max(records.count, 1))
        for t in tensors.indices { pointers[t] = pointerForPlanning(t) }
    }

    deinit {
        pointers.deallocate()
    }

    // MARK: - Shapes

    /// Changes the shape of input `k`; takes effect at the next `allocate()`. Strict (LiteRT's
    /// `ResizeInputTensorStrict`): only dimensions the model marks as dynamic (-1 in
    /// `shape_signature`) may change. Not strict (LiteRT's `ResizeInputTensor`, which
    /// TensorFlowLiteSwift calls): any rank and extents; whether the graph can take them is
    /// decided by `allocate()`, whose prepare steps check every shape anyway, since a model
    /// could declare any of these shapes for its inputs itself.
    func resizeInput(_ k: Int, to shape: [Int], strict: Bool = true) throws(InterpreterError) {
        let t = inputs[k]
        let record = tensors[t]
        guard shape.allSatisfy({ $0 > 0 }) else {
            throw .invalidShape(tensor: record.name, reason: "every dimension must be positive, got \(shape)")
        }
        if shape == record.shape { return }
        let signature = record.shapeSignature ?? record.modelShape
        guard !strict || signature.count == shape.count else {
            throw .invalidShape(tensor: record.name, reason: "rank \(shape.count) given, the model's input has rank \(signature.count) (shape \(record.modelShape))")
        }
        for (i, (want, got)) in zip(signature, shape).enumerated() where strict && want != -1 && want != got {
            throw .invalidShape(tensor: record.name, reason: "dimension \(i) is fixed at \(want) in the model (shape signature \(signature)); cannot resize to \(shape)")
        }
        var n = record.type.byteSize ?? 1
        for d in shape {
            let (p, o) = n.multipliedReportingOverflow(by: d)
            guard !o, p <= memoryLimit else {
                throw .invalidShape(tensor: record.name, reason: "shape \(shape) needs more than the memory limit of \(memoryLimit) bytes")
            }
            n = p
        }
        tensors[t].shape = shape
        isAllocated = false
    }

    func info(_ t: Int) -> TensorInfo {
        let r = tensors[t]
        return TensorInfo(index: t, type: r.type, shape: r.shape, quantization: r.quantization, blockwise: r.blockwise,
                          constantData: r.isConstant ? UnsafeRawPointer(pointers[t]) : nil)
    }

    func setShape(_ t: Int, _ shape: [Int], node: PrepareContext) throws(InterpreterError) {
        guard shape.allSatisfy({ $0 >= 0 }) else { throw node.invalid("computed a negative output shape \(shape)") }
        guard !tensors[t].isConstant else { throw node.invalid("output tensor '\(tensors[t].name)' is a constant") }
        try assignShape(t, shape)
    }

    /// Gives tensor `t` a computed (non-negative) shape that fits the memory limit: its bytes,
    /// and each axis on its own, since kernels plan per-index tables along each output axis
    /// (8 bytes an index) even when another axis is zero and the tensor holds no bytes.
    func assignShape(_ t: Int, _ shape: [Int]) throws(InterpreterError) {
        if let longest = shape.max(), longest > memoryLimit / 8 {
            throw .memoryLimitExceeded(requested: longest * 8, limit: memoryLimit)
        }
        tensors[t].shape = shape
        if tensors[t].type == .string {
            // Its bytes are counted when written; each string takes at least its 4-byte offset.
            let count = Shape.checkedElementCount(shape) ?? Int.max
            guard count <= memoryLimit / 4 else {
                throw .memoryLimitExceeded(requested: count > Int.max / 4 ? Int.max : 4 * count, limit: memoryLimit)
            }
            return
        }
        guard let bytes = tensors[t].byteCount, bytes <= memoryLimit else {
            throw .memoryLimitExceeded(requested: tensors[t].byteCount ?? Int.max, limit: memoryLimit)
        }
    }

    // MARK: - Memory

    /// Where tensor `t`'s bytes live under its current storage.
    func pointerForPlanning(_ t: Int) -> UnsafeMutableRawPointer {
        switch tensors[t].storage {
        case .constant(let p): return UnsafeMutableRawPointer(mutating: p)
        case .owned(let b): return b.pointer
        case .arena(let offset): return arena.map { $0.pointer + offset } ?? emptyBlock.pointer
        case .none: return emptyBlock.pointer
        }
    }

    var invokeContext: InvokeContext {
        InvokeContext(pointers: pointers, scratch: scratch?.pointer ?? emptyBlock.pointer, threads: threads, executor: self)
    }
}

extension SubgraphExecutor {
    /// `byteCount` bytes of zeroed or previously used memory, valid until the next call or
    /// ``releaseStaging()``: one prepare step's transient data (widened weights it packs), in
    /// pages the steps before it have already touched.
    func staging(byteCount: Int) -> UnsafeMutableRawPointer {
        if let buffer = prepareStaging, buffer.byteCount >= byteCount { return buffer.pointer }
        let buffer = AlignedBuffer(byteCount: byteCount)
        prepareStaging = buffer
        return buffer.pointer
    }

    /// Makes the staging memory at least `byteCount` bytes at once, so that prepare steps
    /// asking for less and then more do not each get fresh memory.
    func reserveStaging(byteCount: Int) {
        if byteCount > 0 { _ = staging(byteCount: byteCount) }
    }

    /// Frees the prepare steps' working memory.
    func releaseStaging() {
        prepareStaging = nil
    }
}
