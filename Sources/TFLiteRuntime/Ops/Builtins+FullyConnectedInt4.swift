import Kernels

// FULLY_CONNECTED with float activations and int4 weights: the blockwise form converters give
// transformer weights (ai-edge-torch's dynamic int4 recipes), and the dynamic-range form with
// one scale per tensor or per output channel. Dispatched from `prepareFullyConnected` when the
// weights are INT4.

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
}

func prepareFullyConnectedInt4(_ ctx: inout PrepareContext, options o: Schema.FullyConnectedOptions,
                               batch: Int, inputDepth: Int, outputDepth: Int) throws(InterpreterError) -> NodeKernel {
    try ctx.requireType(input: 0, .float32)
    let y = try ctx.output(0)
    guard y.type == .float32 else { throw ctx.invalid("output type \(y.type) must be FLOAT32 for float input") }
    if try ctx.input(1).blockwise == nil {
        return try prepareFullyConnectedHybridInt4(&ctx, options: o, batch: batch, inputDepth: inputDepth, outputDepth: outputDepth)
    }
    let weights = try ctx.blockwiseInt4Weights(try ctx.input(1), role: "weights")
    let activation = try ctx.floatActivation(o.fusedActivationFunction)
    let b = try ctx.bias(input: 2, channels: outputDepth, type: .float32)
    let x = try ctx.input(0).index, yi = y.index
    ctx.requestScratch(bytes: FullyConnected.blockwiseInt4ScratchBytes(batches: batch, inputDepth: inputDepth))
    if ctx.executor.useReferenceKernels {
        return { c in
            FullyConnected.blockwiseInt4Reference(weights: weights, input: c.data(x, as: Float.self), batches: batch,
                                                  bias: optionalData(c, b, as: Float.self), activation: activation,
                                                  output: c.data(yi, as: Float.self), scratch: c.scratch.assumingMemoryBound(to: Int8.self))
        }
    }
    let optimized = ctx.executor.kernels.blockwiseInt4FullyConnected(weights, batch, activation)
    ctx.kernelName = optimized.name
    return { c in
        optimized.run(input: c.data(x, as: Float.self), bias: optionalData(c, b, as: Float.self), output: c.data(yi, as: Float.self),
                      scratch: c.scratch.assumingMemoryBound(to: Int8.self), pool: c.threads)
    }
}

/// Dynamic-range int4 weights (symmetric, one scale or one per output channel): LiteRT's
/// reference hybrid path, the weights widened row by row.
private func prepareFullyConnectedHybridInt4(_ ctx: inout PrepareContext, options o: Schema.FullyConnectedOptions,
                                            batch: Int, inputDepth: Int, outputDepth: Int) throws(InterpreterError) -> NodeKernel {
    let w = try ctx.input(1)
    guard let data = w.constantData else { throw ctx.unsupported("non-constant INT4 weights") }
    let (scales, zeroPoint) = try ctx.weightScales(w, channels: outputDepth, axis: 0)
    guard zeroPoint == 0 else { throw ctx.invalid("hybrid int4 weights must be symmetric, have zero point \(zeroPoint)") }
    let filterScales = (w.quantization?.scales.count ?? 1) > 1 ? scales : [scales[0]]
    let activation = try ctx.floatActivation(o.fusedActivationFunction), asymmetric = o.asymmetricQuantizeInputs
    let b = try ctx.bias(input: 2, channels: outputDepth, type: .float32)
    ctx.requestScratch(bytes: hybridScratchCount(batches: batch, batchSize: inputDepth))
    let xi = try ctx.input(0).index, yi = try ctx.output(0).index, packed = data.assumingMemoryBound(to: UInt8.self)
    ctx.kernelName = "fully-connected.f32-i4.hybrid"
    return { c in
        hybridFullyConnectedInt4(filterScales: filterScales, activation: activation, asymmetricInputs: asymmetric,
                                 input: c.data(xi, as: Float.self), batches: batch, inputDepth: inputDepth, filter: packed,
                                 outputDepth: outputDepth, bias: optionalData(c, b, as: Float.self),
                                 output: c.data(yi, as: Float.self), scratch: c.scratch.assumingMemoryBound(to: Int8.self))
    }
}
