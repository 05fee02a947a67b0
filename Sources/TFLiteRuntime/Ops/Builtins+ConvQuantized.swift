import Kernels

// Quantised CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV, BATCH_MATMUL and
// pooling: the float preparers hand over here once they have checked shapes and geometry.

func prepareConv2DQuantized(_ ctx: inout PrepareContext, options o: Schema.Conv2DOptions, geometry: ConvGeometry,
                            input: NHWC, filter: NHWC, output: NHWC) throws(InterpreterError) -> NodeKernel {
    let x = try ctx.input(0), w = try ctx.input(1), y = try ctx.output(0)
    let inQ = try ctx.affine(x, role: "input"), outQ = try ctx.affine(y, role: "output")
    let (scales, filterZero) = try ctx.weightScales(w, channels: filter.batch, axis: 0)
    let (qmin, qmax) = try ctx.storageRange(x.type)
    guard let params = QuantizedConvParams.make(geometry: geometry, input: inQ, filterScales: scales, filterZeroPoint: filterZero,
                                                output: outQ, outputChannels: filter.batch,
                                                activation: FusedActivation(o.fusedActivationFunction), qmin: qmin, qmax: qmax)
    else { throw ctx.unsupported("fused activation \(o.fusedActivationFunction) on a quantised output") }
    let xi = x.index, wi = w.index, yi = y.index
    switch (x.type, w.type) {
    case (.int8, .int8), (.int8, .int4):
        let b = try ctx.bias(input: 2, channels: filter.batch, type: .int32)
        let biasData = ctx.optionalInput(2)?.constantData
        let int8Filter = try ctx.int8Filter(w)
        if !ctx.executor.useReferenceKernels, filterZero == 0, input.channels == filter.channels,
           let weights = int8Filter.constantValues(w), b == nil || biasData != nil,
           let optimized = ctx.executor.kernels.int8Conv2D(params, weights.assumingMemoryBound(to: Int8.self), filter,
                                                           biasData?.assumingMemoryBound(to: Int32.self), input, output,
                                                           ctx.executor.threads.threadCount) {
            // Constant symmetric weights: repacked once with the input offset folded into the bias.
            ctx.requestScratch(bytes: optimized.scratchBytes)
            ctx.kernelName = optimized.name
            return { c in
                optimized.run(input: c.data(xi, as: Int8.self), output: c.data(yi, as: Int8.self),
                              scratch: c.scratch.assumingMemoryBound(to: Int8.self), pool: c.threads)
            }
        }
        return { c in
            quantizedConv2D(params, input: c.data(xi, as: Int8.self), inputShape: input, filter: int8Filter.values(c),
                            filterShape: filter, bias: optionalData(c, b, as: Int32.self), output: c.data(yi, as: Int8.self), outputShape: output)
        }
    case (.uInt8, .uInt8):
        let b = try ctx.bias(input: 2, channels: filter.batch, type: .int32)
        return { c in
            quantizedConv2D(params, input: c.data(xi, as: UInt8.self), inputShape: input, filter: c.data(wi, as: UInt8.self),
                            filterShape: filter, bias: optionalData(c, b, as: Int32.self), output: c.data(yi, as: UInt8.self), outputShape: output)
        }
    case (.int16, .int8):
        guard inQ.zeroPoint == 0, outQ.zeroPoint == 0 else { throw ctx.invalid("int16 activations must have zero point 0") }
        // The 16x8 kernel takes a 64-bit bias; an int32 bias is widened once here.
        var wideBias: [Int64]?
        if let bt = ctx.optionalInput(2) {
            guard bt.elementCount == filter.batch else { throw ctx.invalid("bias has \(bt.elementCount) values for \(filter.batch) channels") }
            switch bt.type {
            case .int64: wideBias = bt.constantValues(as: Int64.self)
            case .int32: wideBias = bt.constantValues(as: Int32.self)?.map(Int64.init)
            default: throw ctx.invalid("bias of a 16x8 convolution must be int32 or int64, is \(bt.type)")
            }
            guard wideBias != nil else { throw ctx.unsupported("a bias computed at run time") }
        }
        let bias = wideBias
        return { c in
            if let bias {
                bias.withUnsafeBufferPointer { bp in
                    quantizedConv2DInt16x8(params, input: c.data(xi, as: Int16.self), inputShape: input, filter: c.data(wi, as: Int8.self),
                                           filterShape: filter, bias: bp.baseAddress, output: c.data(yi, as: Int16.self), outputShape: output)
                }
            } else {
                quantizedConv2DInt16x8(params, input: c.data(xi, as: Int16.self), inputShape: input, filter: c.data(wi, as: Int8.self),
                                       filterShape: filter, bias: nil, output: c.data(yi, as: Int16.self), outputShape: output)
            }
        }
    default:
        throw ctx.unsupported("CONV_2D with \(x.type) input and \(w.type) weights")
    }
}

func prepareDepthwiseConv2DQuantized(_ ctx: inout PrepareContext, options o: Schema.DepthwiseConv2DOptions, geometry: ConvGeometry,
                                     depthMultiplier: Int, input: NHWC, filter: NHWC, output: NHWC) throws(InterpreterError) -> NodeKernel {
    let x = try ctx.input(0), w = try ctx.input(1), y = try ctx.output(0)
    let inQ = try ctx.affine(x, role: "input"), outQ = try ctx.affine(y, role: "output")
    let (scales, filterZero) = try ctx.weightScales(w, channels: filter.channels, axis: 3)
    if (x.type, w.type) != (.int8, .int4) { try ctx.requireSameType(x.type, inputs: [0, 1]) }
    let (qmin, qmax) = try ctx.storageRange(x.type)
    guard let params = QuantizedConvParams.make(geometry: geometry, input: inQ, filterScales: scales, filterZeroPoint: filterZero,
                                                output: outQ, outputChannels: filter.channels,
                                                activation: FusedActivation(o.fusedActivationFunction), qmin: qmin, qmax: qmax)
    else { throw ctx.unsupported("fused activation \(o.fusedActivationFunction) on a quantised output") }
    let b = try ctx.bias(input: 2, channels: filter.channels, type: .int32)
    let xi = x.index, wi = w.index, yi = y.index
    switch x.type {
    case .int8:
        let biasData = ctx.optionalInput(2)?.constantData
        let int8Filter = try ctx.int8Filter(w)
        if !ctx.executor.useReferenceKernels, b == nil || biasData != nil, let weights = int8Filter.constantValues(w),
           let optimized = ctx.executor.kernels.int8DepthwiseConv2D(params, depthMultiplier, weights.assumingMemoryBound(to: Int8.self),
                                                                    filter, biasData?.assumingMemoryBound(to: Int32.self), input,
                                                                    output, ctx.executor.threads.threadCount) {
            // Constant weights: converted once, with the input offset folded into the bias.
            ctx.requestScratch(bytes: optimized.scratchBytes)
            ctx.kernelName = optimized.name
            return { c in
                optimized.run(input: c.data(xi, as: Int8.self), output: c.data(yi, as: Int8.self),
                              scratch: c.scratch.assumingMemoryBound(to: Int8.self), pool: c.threads)
            }
        }
        return { c in
            quantizedDepthwiseConv2D(params, depthMultiplier: depthMultiplier, input: c.data(xi, as: Int8.self), inputShape: input,
                                     filter: int8Filter.values(c), filterShape: filter, bias: optionalData(c, b, as: Int32.self),
                                     output: c.data(yi, as: Int8.self), outputShape: output)
        }
    case .uInt8:
        return { c in
            quantizedDepthwiseConv2D(params, depthMultiplier: depthMultiplier, input: c.data(xi, as: UInt8.self), inputShape: input,
                                     filter: c.data(wi, as: UInt8.self), filterShape: filter, bias: optionalData(c, b, as: Int32.self),
                                     output: c.data(yi, as: UInt8.self), outputShape: output)
        }
    default:
        throw ctx.unsupported("DEPTHWISE_CONV_2D on \(x.type)")
    }
}

func prepareFullyConnectedQuantized(_ ctx: inout PrepareContext, options o: Schema.FullyConnectedOptions,
                                    batch: Int, inputDepth: Int, outputDepth: Int) throws(InterpreterError) -> NodeKernel {
    let x = try ctx.input(0), w = try ctx.input(1), y = try ctx.output(0)
    if (x.type, w.type) != (.int8, .int4) { try ctx.requireSameType(x.type, inputs: [0, 1]) }
    let inQ = try ctx.affine(x, role: "input"), outQ = try ctx.affine(y, role: "output")
    let (scales, filterZero) = try ctx.weightScales(w, channels: outputDepth, axis: 0)
    let (qmin, qmax) = try ctx.storageRange(x.type)
    let perChannel = (w.quantization?.scales.count ?? 1) > 1
    guard let params = QuantizedFullyConnectedParams.make(
        input: inQ, filterScales: perChannel ? scales : [scales[0]], filterZeroPoint: filterZero, output: outQ,
        activation: FusedActivation(o.fusedActivationFunction), qmin: qmin, qmax: qmax,
        // LiteRT's FULLY_CONNECTED rescales with a single rounding (its convolutions round twice).
        rounding: .single)
    else { throw ctx.unsupported("fused activation \(o.fusedActivationFunction) on a quantised output") }
    let b = try ctx.bias(input: 2, channels: outputDepth, type: .int32)
    let xi = x.index, wi = w.index, yi = y.index
    switch x.type {
    case .int8:
        let biasData = ctx.optionalInput(2)?.constantData
        let int8Filter = try ctx.int8Filter(w)
        if !ctx.executor.useReferenceKernels, filterZero == 0, let weights = int8Filter.constantValues(w), b == nil || biasData != nil {
            let optimized = ctx.executor.kernels.int8FullyConnected(params, weights.assumingMemoryBound(to: Int8.self), batch,
                                                                    inputDepth, outputDepth, biasData?.assumingMemoryBound(to: Int32.self))
            ctx.kernelName = optimized.name
            // The kernel reads the weights in place: widened int4 ones live as long as it does.
            return { c in
                withExtendedLifetime(int8Filter) {
                    optimized.run(input: c.data(xi, as: Int8.self), output: c.data(yi, as: Int8.self), scratch: nil, pool: c.threads)
                }
            }
        }
        return { c in
            quantizedFullyConnected(params, input: c.data(xi, as: Int8.self), batches: batch, inputDepth: inputDepth,
                                    filter: int8Filter.values(c), outputDepth: outputDepth,
                                    bias: optionalData(c, b, as: Int32.self), output: c.data(yi, as: Int8.self))
        }
    case .uInt8:
        return { c in
            quantizedFullyConnected(params, input: c.data(xi, as: UInt8.self), batches: batch, inputDepth: inputDepth,
                                    filter: c.data(wi, as: UInt8.self), outputDepth: outputDepth,
                                    bias: optionalData(c, b, as: Int32.self), output: c.data(yi, as: UInt8.self))
        }
    default:
        throw ctx.unsupported("FULLY_CONNECTED on \(x.type)")
    }
}

/// The per-output-channel scales of symmetric int8 weights (or int4 ones, where LiteRT takes
/// them) for a hybrid (float activations, integer weights) op; a per-tensor scale is repeated.
private func hybridWeightScales(_ ctx: PrepareContext, channels: Int, axis: Int,
                                acceptsInt4: Bool = false) throws(InterpreterError) -> (scales: [Float], perChannel: Bool) {
    let w = try ctx.input(1)
    guard w.type == .int8 || (acceptsInt4 && w.type == .int4) else { throw ctx.unsupported("hybrid \(ctx.opName) with \(w.type) weights") }
    try ctx.requireType(input: 0, .float32)
    let y = try ctx.output(0)
    guard y.type == .float32 else { throw ctx.invalid("output type \(y.type) must be FLOAT32 for float input") }
    let (scales, zeroPoint) = try ctx.weightScales(w, channels: channels, axis: axis)
    guard zeroPoint == 0 else { throw ctx.invalid("hybrid int8 weights must be symmetric, have zero point \(zeroPoint)") }
    return (scales, (w.quantization?.scales.count ?? 1) > 1)
}

/// The int8 scratch a hybrid op needs for its quantised copy of an NHWC input and the
/// per-batch scales.
private func requestHybridScratch(_ ctx: inout PrepareContext, input: NHWC) {
    ctx.requestScratch(bytes: hybridScratchCount(batches: input.batch, batchSize: input.height * input.width * input.channels))
}

func prepareConv2DHybrid(_ ctx: inout PrepareContext, options o: Schema.Conv2DOptions, geometry: ConvGeometry,
                         input: NHWC, filter: NHWC, output: NHWC) throws(InterpreterError) -> NodeKernel {
    let (scales, perChannel) = try hybridWeightScales(ctx, channels: filter.batch, axis: 0, acceptsInt4: true)
    // LiteRT quantises the input asymmetrically on its per-channel path, symmetrically otherwise.
    let params = HybridConvParams(geometry: geometry, filterScales: scales,
                                  activation: try ctx.floatActivation(o.fusedActivationFunction), asymmetricInputs: perChannel)
    let b = try ctx.bias(input: 2, channels: filter.batch, type: .float32)
    requestHybridScratch(&ctx, input: input)
    let xi = try ctx.input(0).index, int8Filter = try ctx.int8Filter(ctx.input(1)), yi = try ctx.output(0).index
    return { c in
        hybridConv2DInt8(params, input: c.data(xi, as: Float.self), inputShape: input, filter: int8Filter.values(c),
                         filterShape: filter, bias: optionalData(c, b, as: Float.self), output: c.data(yi, as: Float.self),
                         outputShape: output, scratch: c.scratch.assumingMemoryBound(to: Int8.self))
    }
}

func prepareDepthwiseConv2DHybrid(_ ctx: inout PrepareContext, options o: Schema.DepthwiseConv2DOptions, geometry: ConvGeometry,
                                  depthMultiplier: Int, input: NHWC, filter: NHWC, output: NHWC) throws(InterpreterError) -> NodeKernel {
    let (scales, perChannel) = try hybridWeightScales(ctx, channels: filter.channels, axis: 3)
    let params = HybridConvParams(geometry: geometry, filterScales: scales,
                                  activation: try ctx.floatActivation(o.fusedActivationFunction), asymmetricInputs: perChannel)
    let b = try ctx.bias(input: 2, channels: filter.channels, type: .float32)
    requestHybridScratch(&ctx, input: input)
    let xi = try ctx.input(0).index, wi = try ctx.input(1).index, yi = try ctx.output(0).index
    return { c in
        hybridDepthwiseConv2DInt8(params, depthMultiplier: depthMultiplier, input: c.data(xi, as: Float.self), inputShape: input,
                                  filter: c.data(wi, as: Int8.self), filterShape: filter, bias: optionalData(c, b, as: Float.self),
                                  output: c.data(yi, as: Float.self), outputShape: output, scratch: c.scratch.assumingMemoryBound(to: Int8.self))
    }
}

func prepareFullyConnectedHybrid(_ ctx: inout PrepareContext, options o: Schema.FullyConnectedOptions,
                                 batch: Int, inputDepth: Int, outputDepth: Int) throws(InterpreterError) -> NodeKernel {
    let (scales, perChannel) = try hybridWeightScales(ctx, channels: outputDepth, axis: 0)
    let filterScales = perChannel ? scales : [scales[0]]
    let activation = try ctx.floatActivation(o.fusedActivationFunction), asymmetric = o.asymmetricQuantizeInputs
    let b = try ctx.bias(input: 2, channels: outputDepth, type: .float32)
    ctx.requestScratch(bytes: hybridScratchCount(batches: batch, batchSize: inputDepth))
    let xi = try ctx.input(0).index, wi = try ctx.input(1).index, yi = try ctx.output(0).index
    return { c in
        hybridFullyConnectedInt8(filterScales: filterScales, activation: activation, asymmetricInputs: asymmetric,
                                 input: c.data(xi, as: Float.self), batches: batch, inputDepth: inputDepth,
                                 filter: c.data(wi, as: Int8.self), outputDepth: outputDepth, bias: optionalData(c, b, as: Float.self),
                                 output: c.data(yi, as: Float.self), scratch: c.scratch.assumingMemoryBound(to: Int8.self))
    }
}

func prepareTransposeConvQuantized(_ ctx: inout PrepareContext, options o: Schema.TransposeConvOptions, paddingTop: Int, paddingLeft: Int,
                                   input: NHWC, filter: NHWC, output: NHWC) throws(InterpreterError) -> NodeKernel {
    let w = try ctx.input(1), x = try ctx.input(2), y = try ctx.output(0)
    guard x.type == .int8 else { throw ctx.unsupported("quantised TRANSPOSE_CONV on \(x.type)") }
    try ctx.requireSameType(.int8, inputs: [1, 2])
    let inQ = try ctx.affine(x, role: "input"), outQ = try ctx.affine(y, role: "output")
    let (scales, filterZero) = try ctx.weightScales(w, channels: filter.batch, axis: 0)
    let (qmin, qmax) = try ctx.storageRange(x.type)
    // Only the strides and the leading padding matter to the scatter kernel.
    let geometry = ConvGeometry(strideHeight: Int(o.strideH), strideWidth: Int(o.strideW),
                                paddingHeight: AxisPadding(before: paddingTop, after: 0),
                                paddingWidth: AxisPadding(before: paddingLeft, after: 0))
    guard let params = QuantizedConvParams.make(geometry: geometry, input: inQ, filterScales: scales, filterZeroPoint: filterZero,
                                                output: outQ, outputChannels: filter.batch,
                                                activation: FusedActivation(o.fusedActivationFunction), qmin: qmin, qmax: qmax)
    else { throw ctx.unsupported("fused activation \(o.fusedActivationFunction) on a quantised output") }
    let b = try ctx.bias(input: 3, channels: filter.batch, type: .int32)
    // The int32 accumulators live in the shared scratch block.
    let (scratchBytes, overflow) = output.elementCount.multipliedReportingOverflow(by: MemoryLayout<Int32>.stride)
    guard !overflow else { throw ctx.invalid("output \(output.dims) is too large") }
    ctx.requestScratch(bytes: scratchBytes)
    let xi = x.index, wi = w.index, yi = y.index
    return { c in
        quantizedTransposeConv2D(params, input: c.data(xi, as: Int8.self), inputShape: input, filter: c.data(wi, as: Int8.self),
                                 filterShape: filter, bias: optionalData(c, b, as: Int32.self), output: c.data(yi, as: Int8.self),
                                 outputShape: output, scratch: c.scratch.assumingMemoryBound(to: Int32.self))
    }
}

func prepareBatchMatMulQuantized(_ ctx: inout PrepareContext, options o: Schema.BatchMatMulOptions,
                                 outputShape: [Int]) throws(InterpreterError) -> NodeKernel {
    let lhs = try ctx.input(0), rhs = try ctx.input(1), y = try ctx.output(0)
    guard lhs.type == .int8 else { throw ctx.unsupported("quantised BATCH_MATMUL on \(lhs.type)") }
    try ctx.requireSameType(.int8, inputs: [0, 1])
    let lq = try ctx.affine(lhs, role: "lhs"), rq = try ctx.affine(rhs, role: "rhs"), outQ = try ctx.affine(y, role: "output")
    guard let params = QuantizedFullyConnectedParams.make(input: lq, filterScales: [rq.scale], filterZeroPoint: rq.zeroPoint,
                                                          output: outQ, activation: .none, qmin: -128, qmax: 127,
                                                          // LiteRT's BATCH_MATMUL rescales with double rounding.
                                                          rounding: .double)
    else { throw ctx.invalid("cannot derive the output rescaling") }
    // The kernel walks each operand's matrices with one batch stride, so broadcasting is
    // limited to an operand whose batch extents are all 1 (or all equal to the output's).
    let rank = outputShape.count
    let lShape = Shape.extended(lhs.shape, toRank: rank), rShape = Shape.extended(rhs.shape, toRank: rank)
    let batchAxes = 0..<(rank - 2)
    let batches = batchAxes.reduce(1) { $0 * outputShape[$1] }
    let lBatches = batchAxes.reduce(1) { $0 * lShape[$1] }, rBatches = batchAxes.reduce(1) { $0 * rShape[$1] }
    guard lBatches == batches || lBatches == 1, rBatches == batches || rBatches == 1,
          batchAxes.allSatisfy({ lShape[$0] == outputShape[$0] || lBatches == 1 }),
          batchAxes.allSatisfy({ rShape[$0] == outputShape[$0] || rBatches == 1 }) else {
        throw ctx.unsupported("int8 BATCH_MATMUL broadcasting \(lhs.shape) against \(rhs.shape)")
    }
    guard !o.adjX else { throw ctx.unsupported("int8 BATCH_MATMUL with adj_x") }
    let rows = lShape[rank - 2], depth = lShape[rank - 1], columns = outputShape[rank - 1]
    // rhs is depth x columns, or columns x depth when adj_y is set.
    let rowStride = o.adjY ? 1 : columns, columnStride = o.adjY ? depth : 1
    let lStride = lBatches == 1 ? 0 : rows * depth, rStride = rBatches == 1 ? 0 : depth * columns
    let li = lhs.index, ri = rhs.index, yi = y.index
    return { c in
        quantizedBatchMatMulInt8(params, lhs: c.data(li, as: Int8.self), lhsBatchStride: lStride,
                                 rhs: c.data(ri, as: Int8.self), rhsBatchStride: rStride, rhsRowStride: rowStride, rhsColumnStride: columnStride,
                                 batches: batches, rows: rows, depth: depth, columns: columns, output: c.data(yi, as: Int8.self))
    }
}

func preparePoolQuantized(_ ctx: inout PrepareContext, kind: PoolKind, options o: Schema.Pool2DOptions, geometry: ConvGeometry,
                          input: NHWC, output: NHWC) throws(InterpreterError) -> NodeKernel {
    let x = try ctx.input(0), y = try ctx.output(0)
    let inQ = try ctx.affine(x, role: "input"), outQ = try ctx.affine(y, role: "output")
    guard inQ == outQ else { throw ctx.invalid("pooling needs equal input and output quantization") }
    let params = QuantizedPoolParams(geometry: geometry, filterHeight: Int(o.filterHeight), filterWidth: Int(o.filterWidth),
                                     activation: try ctx.quantizedActivation(o.fusedActivationFunction, output: outQ, type: x.type))
    let xi = x.index, yi = y.index
    if kind == .average, x.type == .int8, !ctx.executor.useReferenceKernels {
        return { c in
            quantizedAveragePool2DInt8(params, input: c.data(xi, as: Int8.self), inputShape: input,
                                       output: c.data(yi, as: Int8.self), outputShape: output, pool: c.threads)
        }
    }
    func kernel<T: QuantizedElement>(_ t: T.Type) -> NodeKernel {
        switch kind {
        case .average:
            return { c in quantizedAveragePool2D(params, input: c.data(xi, as: T.self), inputShape: input, output: c.data(yi, as: T.self), outputShape: output) }
        default:
            return { c in quantizedMaxPool2D(params, input: c.data(xi, as: T.self), inputShape: input, output: c.data(yi, as: T.self), outputShape: output) }
        }
    }
    switch x.type {
    case .int8: return kernel(Int8.self)
    case .uInt8: return kernel(UInt8.self)
    case .int16: return kernel(Int16.self)
    default: throw ctx.unsupported("pooling on \(x.type)")
    }
}
