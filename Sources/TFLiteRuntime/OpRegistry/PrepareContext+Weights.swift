import Kernels

/// The filter of a quantised or hybrid convolution (or quantised FULLY_CONNECTED) as int8
/// values: an int8 tensor's own, or those of a constant int4 filter, widened once at prepare.
/// LiteRT unpacks int4 filters to int8 and runs its int8 kernels on them, so the int8 kernels
/// here serve both.
struct Int8Filter {
    let tensor: Int
    /// The widened values of an int4 filter; nil for an int8 one.
    let widened: AlignedBuffer?

    /// The values while the kernel runs.
    @inline(__always)
    func values(_ c: InvokeContext) -> UnsafeMutablePointer<Int8> {
        widened?.pointer.assumingMemoryBound(to: Int8.self) ?? c.data(tensor, as: Int8.self)
    }

    /// The values at prepare when they are constant, for kernels that repack their weights; a
    /// kernel that reads them in place must keep this filter alive.
    func constantValues(_ w: TensorInfo) -> UnsafeRawPointer? {
        widened.map { UnsafeRawPointer($0.pointer) } ?? w.constantData
    }
}

extension PrepareContext {
    /// `w` as int8 filter values; an int4 filter must be constant, as converters write it.
    func int8Filter(_ w: TensorInfo) throws(InterpreterError) -> Int8Filter {
        guard w.type == .int4 else { return Int8Filter(tensor: w.index, widened: nil) }
        guard let data = w.constantData else { throw unsupported("a non-constant INT4 filter") }
        let widened = AlignedBuffer(byteCount: w.elementCount)
        PackedInt4.unpack(data.assumingMemoryBound(to: UInt8.self), from: 0, count: w.elementCount,
                          into: widened.pointer.assumingMemoryBound(to: Int8.self))
        return Int8Filter(tensor: w.index, widened: widened)
    }
}

/// The filter of a float CONV_2D or FULLY_CONNECTED as float32 values: a float32 tensor's own,
/// or float16 weights whose DEQUANTIZE the fusion pass folded into the node
/// (``Fusion/halfPrecisionFilter``), widened at prepare into the executor's staging memory. A
/// kernel that packs its weights takes them from there; one that reads its filter while it
/// runs gets a copy of its own (``kept(by:)``).
struct FloatFilter {
    let tensor: Int
    /// The widened values of a float16 filter, in staging memory; nil for a float32 one.
    private let widened: UnsafeMutablePointer<Float>?
    private let count: Int
    /// The widened values' own copy, once a kernel that reads them at run time kept them.
    private var owned: AlignedBuffer?

    fileprivate init(tensor: Int, widened: UnsafeMutablePointer<Float>?, count: Int) {
        self.tensor = tensor
        self.widened = widened
        self.count = count
    }

    /// The values at prepare when they are constant, for the planning function.
    func planned(_ w: TensorInfo) -> PlannedOperand<Float> {
        widened.map { .constant(UnsafePointer($0)) } ?? w.planned(as: Float.self)
    }

    /// This filter as `kernel` needs it while it runs: widened values copied out of staging
    /// unless the kernel packed them.
    func kept<Operands>(by kernel: PlannedKernel<Operands>) -> FloatFilter {
        guard let widened, !kernel.packedItsWeights else { return self }
        var kept = self
        let buffer = AlignedBuffer(byteCount: count * MemoryLayout<Float>.stride)
        buffer.pointer.copyMemory(from: widened, byteCount: count * MemoryLayout<Float>.stride)
        kept.owned = buffer
        return kept
    }

    /// The values while the kernel runs. A kernel that packed widened weights is handed the
    /// float16 tensor's address, which it never reads.
    @inline(__always)
    func values(_ c: InvokeContext) -> UnsafeMutablePointer<Float> {
        owned?.pointer.assumingMemoryBound(to: Float.self) ?? c.data(tensor, as: Float.self)
    }
}

extension PrepareContext {
    /// Input `i` as a float filter: float32, or float16 weights widened here when the fusion
    /// pass folded their DEQUANTIZE into this node (only then is a float16 filter accepted).
    func floatFilter(input i: Int) throws(InterpreterError) -> FloatFilter {
        let w = try input(i)
        guard fusions.halfPrecisionFilter, w.type == .float16, let data = w.constantData else {
            try requireType(input: i, .float32)
            return FloatFilter(tensor: w.index, widened: nil, count: w.elementCount)
        }
        let widened = executor.staging(byteCount: w.elementCount * MemoryLayout<Float>.stride)
            .bindMemory(to: Float.self, capacity: w.elementCount)
        Dequantize.float16(input: data.assumingMemoryBound(to: UInt16.self), output: widened, count: w.elementCount)
        return FloatFilter(tensor: w.index, widened: widened, count: w.elementCount)
    }
}

/// The blockwise description of a constant int4 weight matrix `[rows, columns]`, checked
/// against the subgraph: block size dividing the rows, float16 scales of the right count, no
/// zero points (LiteRT's kernels support none).
extension PrepareContext {
    func blockwiseInt4Weights(_ w: TensorInfo, role: String) throws(InterpreterError) -> BlockwiseInt4Weights {
        guard let blockwise = w.blockwise else {
            throw unsupported("\(role) of type INT4 without blockwise quantization (only blockwise int4 is supported)")
        }
        guard let data = w.constantData else { throw unsupported("non-constant INT4 \(role)") }
        guard w.rank == 2 else { throw invalid("blockwise \(role) must have rank 2, have shape \(w.shape)") }
        let rows = w.shape[0], columns = w.shape[1], size = blockwise.blockSize
        guard size > 0, columns % size == 0, size % 2 == 0 else {
            throw invalid("block size \(size) must be even and divide the \(role)' \(columns) columns")
        }
        guard blockwise.zeroPointsTensor == nil else { throw unsupported("blockwise \(role) with zero points") }
        guard blockwise.scalesTensor >= 0, blockwise.scalesTensor < executor.tensors.count else {
            throw invalid("blockwise scales tensor \(blockwise.scalesTensor) is out of range")
        }
        let scales = executor.info(blockwise.scalesTensor)
        guard scales.type == .float16, let scaleData = scales.constantData else {
            throw invalid("blockwise scales must be constant FLOAT16, are \(scales.isConstant ? "" : "non-constant ")\(scales.type)")
        }
        guard scales.elementCount == rows * (columns / size) else {
            throw invalid("blockwise scales hold \(scales.elementCount) values for \(rows) rows of \(columns / size) blocks")
        }
        return BlockwiseInt4Weights(packed: data.assumingMemoryBound(to: UInt8.self), rows: rows, columns: columns,
                                    blockSize: size, halfScales: scaleData.assumingMemoryBound(to: UInt16.self))
    }

    /// The per-output-channel scales of symmetric int8 weights (or int4 ones, where LiteRT takes
    /// them) for a hybrid (float activations, integer weights) op; a per-tensor scale is repeated.
    func hybridWeightScales(channels: Int, axis: Int,
                            acceptsInt4: Bool = false) throws(InterpreterError) -> (scales: [Float], perChannel: Bool) {
        let w = try input(1)
        guard w.type == .int8 || (acceptsInt4 && w.type == .int4) else { throw unsupported("hybrid \(opName) with \(w.type) weights") }
        try requireType(input: 0, .float32)
        let y = try output(0)
        guard y.type == .float32 else { throw invalid("output type \(y.type) must be FLOAT32 for float input") }
        let (scales, zeroPoint) = try weightScales(w, channels: channels, axis: axis)
        guard zeroPoint == 0 else { throw invalid("hybrid int8 weights must be symmetric, have zero point \(zeroPoint)") }
        return (scales, (w.quantization?.scales.count ?? 1) > 1)
    }
}

extension PrepareContext {
    /// The sparsity metadata the model stores for tensor `index` of this node's subgraph,
    /// converted for the kernel; nil when the tensor is dense.
    func sparsity(ofTensor index: Int) throws(InterpreterError) -> SparsityParameters? {
        let model = executor.model
        guard let s = model.schema.subgraphs[executor.subgraphIndex].tensors[index].sparsity else { return nil }
        /// The entries of one index vector of dimension `level`.
        func values(_ v: Schema.SparseIndexVector?, _ what: String, level: Int) throws(InterpreterError) -> [Int] {
            switch v {
            case .int32Vector(let w)?: return w.values.map(Int.init)
            case .uint16Vector(let w)?: return w.values.map(Int.init)
            case .uint8Vector(let w)?:
                guard let range = w.values else { return [] }
                return model.bytes(range).map(Int.init)
            case .unknown(let tag)?: throw invalid("dimension \(level) has \(what) of unknown vector type \(tag)")
            case nil: throw invalid("sparse dimension \(level) has no \(what)")
            }
        }
        var dimensions: [SparsityParameters.Dimension] = []
        for (level, d) in s.dimMetadata.enumerated() {
            switch d.format {
            case .dense:
                dimensions.append(.dense(size: Int(d.denseSize)))
            case .sparseCsr:
                dimensions.append(.sparseCSR(segments: try values(d.arraySegments, "array_segments", level: level),
                                             indices: try values(d.arrayIndices, "array_indices", level: level)))
            }
        }
        return SparsityParameters(traversalOrder: s.traversalOrder.map(Int.init), blockMap: s.blockMap.map(Int.init),
                                  dimensions: dimensions)
    }
}
