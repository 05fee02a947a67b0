import Kernels

// Quantised CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV, BATCH_MATMUL and
// pooling: the float preparers hand over here once they have checked shapes and geometry.

func prepareConv2DQuantized(_ ctx: inout PrepareContext, options o: Schema.Conv2DOptions, geometry: ConvGeometry,
                            input: NHWC, filter: NHWC, output: NHWC) throws(InterpreterError) -> NodeKernel {
    let x = try ctx.input(0), w = try ctx.input(1), y = try ctx.output(0)
    let inQ = try ctx.affine(x, role: "input"), outQ = try ctx.affine(y, role: "output")
    let (scales, filterZero) = try ctx.weightScales(w, channels: filter.batch, axis: 0)
    guard y.type == x.type else { throw ctx.invalid("output type \(y.type) differs from input type \(x.type)") }
    let (qmin, qmax) = try ctx.storageRange(x.type)
    guard let params = QuantizedConvParams.make(geometry: geometry, input: inQ, filterScales: scales, filterZeroPoint: filterZero,
                                                output: outQ, outputChannels: filter.batch,
                                                activation: FusedActivation(o.fusedActivationFunction), qmin: qmin, qmax: qmax)
    else { throw ctx.unsupported("fused activation \(o.fusedActivationFunction) on a quantised output") }
    let xi = x.index, wi = w.index, yi = y.index
    switch (x.type, w.type) {
    case (.int8, .int8):
        let b = try ctx.bias(input: 2, channels: filter.batch, type: .int32)
        let biasData = ctx.optionalInput(2)?.constantData
        if !ctx.executor.useReferenceKernels, filterZero == 0, input.channels == filter.channels,
           let weights = w.constantData, b == nil || biasData != nil {
            // Constant symmetric weights: repacked once with the input offset folded into the bias.
            let prepared = PreparedInt8Conv2D(params, filter: weights.assumingMemoryBound(to: Int8.self), filterShape: filter,
                                              bias: biasData?.assumingMemoryBound(to: Int32.self))
            ctx.requestScratch(bytes: prepared.scratchCount(threadCount: ctx.executor.threads.threadCount))
            return { c in
                conv2DInt8Optimized(prepared, input: c.data(xi, as: Int8.self), inputShape: input, output: c.data(yi, as: Int8.self),
                                    outputShape: output, scratch: c.scratch.assumingMemoryBound(to: Int8.self), pool: c.threads)
            }
        }
        return { c in
            quantizedConv2D(params, input: c.data(xi, as: Int8.self), inputShape: input, filter: c.data(wi, as: Int8.self),
                            filterShape: filter, bias: optionalData(c, b, as: Int32.self), output: c.data(yi, as: Int8.self), outputShape: output)
        }
    case (.uint8, .uint8):
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
    try ctx.requireSameType(x.type, inputs: [0, 1])
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
        if !ctx.executor.useReferenceKernels, b == nil || biasData != nil,
           let prepared = PreparedInt8DepthwiseConv2D(params, depthMultiplier: depthMultiplier, channels: filter.channels,
                                                      bias: biasData?.assumingMemoryBound(to: Int32.self)) {
            return { c in
                depthwiseConv2DInt8Optimized(prepared, input: c.data(xi, as: Int8.self), inputShape: input,
                                             filter: c.data(wi, as: Int8.self), filterShape: filter,
                                             output: c.data(yi, as: Int8.self), outputShape: output, pool: c.threads)
            }
        }
        return { c in
            quantizedDepthwiseConv2D(params, depthMultiplier: depthMultiplier, input: c.data(xi, as: Int8.self), inputShape: input,
                                     filter: c.data(wi, as: Int8.self), filterShape: filter, bias: optionalData(c, b, as: Int32.self),
                                     output: c.data(yi, as: Int8.self), outputShape: output)
        }
    case .uint8:
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
    try ctx.requireSameType(x.type, inputs: [0, 1])
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
        if !ctx.executor.useReferenceKernels, filterZero == 0, let weights = w.constantData, b == nil || biasData != nil {
            let prepared = PreparedInt8FullyConnected(params, filter: weights.assumingMemoryBound(to: Int8.self), inputDepth: inputDepth,
                                                      outputDepth: outputDepth, bias: biasData?.assumingMemoryBound(to: Int32.self))
            return { c in
                fullyConnectedInt8Optimized(prepared, input: c.data(xi, as: Int8.self), batches: batch,
                                            filter: c.data(wi, as: Int8.self), output: c.data(yi, as: Int8.self), pool: c.threads)
            }
        }
        return { c in
            quantizedFullyConnected(params, input: c.data(xi, as: Int8.self), batches: batch, inputDepth: inputDepth,
                                    filter: c.data(wi, as: Int8.self), outputDepth: outputDepth,
                                    bias: optionalData(c, b, as: Int32.self), output: c.data(yi, as: Int8.self))
        }
    case .uint8:
        return { c in
            quantizedFullyConnected(params, input: c.data(xi, as: UInt8.self), batches: batch, inputDepth: inputDepth,
                                    filter: c.data(wi, as: UInt8.self), outputDepth: outputDepth,
                                    bias: optionalData(c, b, as: Int32.self), output: c.data(yi, as: UInt8.self))
        }
    default:
        throw ctx.unsupported("FULLY_CONNECTED on \(x.type)")
    }
}

func prepareFullyConnectedHybrid(_ ctx: inout PrepareContext, options o: Schema.FullyConnectedOptions,
                                 batch: Int, inputDepth: Int, outputDepth: Int) throws(InterpreterError) -> NodeKernel {
    throw ctx.unsupported("hybrid FULLY_CONNECTED (float input, \(try ctx.input(1).type) weights)")
}

func prepareTransposeConvQuantized(_ ctx: inout PrepareContext, options o: Schema.TransposeConvOptions, paddingTop: Int, paddingLeft: Int,
                                   input: NHWC, filter: NHWC, output: NHWC) throws(InterpreterError) -> NodeKernel {
    throw ctx.unsupported("quantised TRANSPOSE_CONV")
}

func prepareBatchMatMulQuantized(_ ctx: inout PrepareContext, options o: Schema.BatchMatMulOptions,
                                 outputShape: [Int]) throws(InterpreterError) -> NodeKernel {
    throw ctx.unsupported("quantised BATCH_MATMUL")
}

func preparePoolQuantized(_ ctx: inout PrepareContext, kind: PoolKind, options o: Schema.Pool2DOptions, geometry: ConvGeometry,
                          input: NHWC, output: NHWC) throws(InterpreterError) -> NodeKernel {
    let x = try ctx.input(0), y = try ctx.output(0)
    let inQ = try ctx.affine(x, role: "input"), outQ = try ctx.affine(y, role: "output")
    guard inQ == outQ else { throw ctx.invalid("pooling needs equal input and output quantization") }
    let params = QuantizedPoolParams(geometry: geometry, filterHeight: Int(o.filterHeight), filterWidth: Int(o.filterWidth),
                                     activation: try ctx.quantizedActivation(o.fusedActivationFunction, output: outQ, type: x.type))
    let xi = x.index, yi = y.index
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
    case .uint8: return kernel(UInt8.self)
    case .int16: return kernel(Int16.self)
    default: throw ctx.unsupported("pooling on \(x.type)")
    }
}
