import Kernels

/// TRANSPOSE_CONV and MediaPipe's `Convolution2DTransposeBias` (the same scatter with a bias,
/// its options stored as a raw `{padding, stride_w, stride_h}` struct in custom_options).
extension OpRegistry {
    mutating func registerTransposeConvOps() {
        register(.transposeConv, types: [.float32, .int8, .int16], outputTypes: .sameAs(input: 2), prepareTransposeConv)
        register(custom: "Convolution2DTransposeBias", types: [.float32], prepareConvolution2DTransposeBias)
    }
}

/// Padding TFLite applies to a transposed convolution: computed as for a forward convolution
/// from the output back to the input.
private func transposePadding(_ scheme: PaddingScheme, input: NHWC, filter: NHWC, output: NHWC,
                              strideH: Int, strideW: Int) -> (top: Int, left: Int) {
    let ph = scheme.padding(input: output.height, filter: filter.height, stride: strideH, output: input.height)
    let pw = scheme.padding(input: output.width, filter: filter.width, stride: strideW, output: input.width)
    return (ph.before, pw.before)
}

private func prepareTransposeConv(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...4, outputs: 1...1)
    guard case .transposeConvOptions(let o)? = ctx.options else { throw ctx.invalid("missing TransposeConvOptions") }
    if let f = ctx.optionalInput(1), f.rank == 4, let x = ctx.optionalInput(2) {
        ctx.flops = checkedProduct([2, x.elementCount, f.shape[0], f.shape[1], f.shape[2]])
    }
    if !(ctx.optionalInput(0)?.isConstant ?? true) || ctx.optionalInput(2)?.type == .int16 {
        return try prepareTransposeConvSizedAtInvoke(&ctx, options: o)
    }
    let outputDims = try ctx.constantIntegers(input: 0)
    guard let outShape = NHWC(outputDims), outputDims.allSatisfy({ $0 >= 0 }) else {
        throw ctx.invalid("output_shape must be 4 non-negative values, is \(outputDims)")
    }
    let filter = try ctx.nhwc(input: 1), input = try ctx.nhwc(input: 2)
    guard filter.channels == input.channels, filter.batch == outShape.channels, input.batch == outShape.batch,
          o.strideH > 0, o.strideW > 0 else {
        throw ctx.invalid("filter \(filter.dims), input \(input.dims) and output \(outShape.dims) do not agree")
    }
    try ctx.setOutputShape(0, outShape.dims)
    let pad = transposePadding(ctx.paddingScheme(o.padding), input: input, filter: filter, output: outShape,
                                   strideH: Int(o.strideH), strideW: Int(o.strideW))
    switch try ctx.input(2).type {
    case .float32: break
    case .int8, .int16:
        return try prepareTransposeConvQuantized(&ctx, options: o, paddingTop: pad.top, paddingLeft: pad.left,
                                                 input: input, filter: filter, output: outShape)
    case let t: throw ctx.unsupported("input type \(t)")
    }
    try ctx.requireType(input: 1, .float32)
    let params = TransposeConvParams(strideHeight: Int(o.strideH), strideWidth: Int(o.strideW),
                                     paddingTop: pad.top, paddingLeft: pad.left,
                                     activation: try ctx.floatActivation(o.fusedActivationFunction))
    return try transposeConvKernel(&ctx, params: params, input: input, filter: filter, output: outShape,
                                   inputIndex: 2, filterIndex: 1, biasIndex: 3)
}

/// A quantised TRANSPOSE_CONV whose output is sized at each invocation: the output shape is a
/// tensor the graph computes (TFLite Micro's seanet layers take it as a model input), or the
/// activations are int16, whose kernel runs only here. The shape's values give the output's
/// size and the padding; the int32 (int8) or int64 (16x8) accumulators are allocated for that
/// size, within the memory limit, in a workspace kept between invocations (so a warm invoke
/// with an unchanged shape allocates nothing for it).
private func prepareTransposeConvSizedAtInvoke(_ ctx: inout PrepareContext, options o: Schema.TransposeConvOptions)
    throws(InterpreterError) -> NodeKernel {
    let shapeTensor = try ctx.input(0)
    guard shapeTensor.type == .int32, shapeTensor.shape == [4] else {
        throw ctx.invalid("output_shape must be 4 int32 values, is \(shapeTensor.type) \(shapeTensor.shape)")
    }
    let filter = try ctx.nhwc(input: 1), input = try ctx.nhwc(input: 2)
    guard filter.channels == input.channels, o.strideH > 0, o.strideW > 0 else {
        throw ctx.invalid("filter \(filter.dims) and input \(input.dims) do not agree, or a stride is not positive")
    }
    let w = try ctx.input(1), x = try ctx.input(2), y = try ctx.output(0)
    guard w.type == .int8, x.type == .int8 || x.type == .int16, y.type == x.type else {
        throw ctx.unsupported("TRANSPOSE_CONV on \(x.type) with an output shape computed at run time; only int8 and int16 activations with int8 weights")
    }
    let is16 = x.type == .int16
    let inQ = try ctx.affine(x, role: "input"), outQ = try ctx.affine(y, role: "output")
    let (scales, filterZero) = try ctx.weightScales(w, channels: filter.batch, axis: 0)
    let (qmin, qmax) = try ctx.storageRange(x.type)
    let unpadded = ConvGeometry(strideHeight: Int(o.strideH), strideWidth: Int(o.strideW),
                                paddingHeight: AxisPadding(before: 0, after: 0), paddingWidth: AxisPadding(before: 0, after: 0))
    guard let params = QuantizedConvParams.make(geometry: unpadded, input: inQ, filterScales: scales, filterZeroPoint: filterZero,
                                                output: outQ, outputChannels: filter.batch,
                                                activation: FusedActivation(o.fusedActivationFunction), qmin: qmin, qmax: qmax)
    else { throw ctx.unsupported("fused activation \(o.fusedActivationFunction) on a quantised output") }
    let b = try ctx.bias(input: 3, channels: filter.batch, type: is16 ? .int64 : .int32)
    try ctx.setOutputDynamic(0)
    let scheme = ctx.paddingScheme(o.padding)
    let si = shapeTensor.index, xi = x.index, wi = w.index, yi = y.index, node = ctx.nodeIndex
    let workspace = GrowingWorkspace()
    return { c throws(InterpreterError) in
        let dims = UnsafeBufferPointer(start: c.data(si, as: Int32.self), count: 4).map(Int.init)
        guard let output = NHWC(dims), dims.allSatisfy({ $0 >= 0 }), output.batch == input.batch,
              output.channels == filter.batch else {
            throw .invokeFailed(node: node, op: "TRANSPOSE_CONV",
                                reason: "output_shape \(dims) does not agree with input \(input.dims) and filter \(filter.dims)")
        }
        let pad = transposePadding(scheme, input: input, filter: filter, output: output,
                                   strideH: unpadded.strideHeight, strideW: unpadded.strideWidth)
        var p = params
        p.geometry = ConvGeometry(strideHeight: unpadded.strideHeight, strideWidth: unpadded.strideWidth,
                                  paddingHeight: AxisPadding(before: pad.top, after: 0), paddingWidth: AxisPadding(before: pad.left, after: 0))
        let destination = try c.resize(yi, to: output.dims)
        let count = output.elementCount, width = is16 ? 8 : 4
        guard count <= c.executor.memoryLimit / width else {
            throw .memoryLimitExceeded(requested: count &* width, limit: c.executor.memoryLimit)
        }
        let scratch = workspace.reserve(bytes: count &* width)
        if is16 {
            TransposeConv.Int16x8.reference(p, ConvOperands(input: c.data(xi, as: Int16.self), inputShape: input, filter: c.data(wi, as: Int8.self),
                                            filterShape: filter, bias: optionalData(c, b, as: Int64.self),
                                            output: destination.assumingMemoryBound(to: Int16.self), outputShape: output),
                                            scratch: scratch.assumingMemoryBound(to: Int64.self))
        } else {
            TransposeConv.Quantized.reference(p, ConvOperands(input: c.data(xi, as: Int8.self), inputShape: input, filter: c.data(wi, as: Int8.self),
                                              filterShape: filter, bias: optionalData(c, b, as: Int32.self),
                                              output: destination.assumingMemoryBound(to: Int8.self), outputShape: output),
                                              scratch: scratch.assumingMemoryBound(to: Int32.self))
        }
    }
}

private func transposeConvKernel(_ ctx: inout PrepareContext, params: TransposeConvParams, input: NHWC, filter: NHWC, output: NHWC,
                                 inputIndex: Int, filterIndex: Int, biasIndex: Int) throws(InterpreterError) -> NodeKernel {
    let x = try ctx.input(inputIndex).index, w = try ctx.input(filterIndex), y = try ctx.output(0).index
    let b = try ctx.bias(input: biasIndex, channels: output.channels, type: .float32)
    let kernel = TransposeConv.plan(params: params, inputShape: input, filter: w.planned(as: Float.self), filterShape: filter,
                                    outputShape: output, threadCount: ctx.executor.threads.threadCount, using: ctx.kernelChoice)
    let wi = w.index
    return ctx.bind(kernel, input: x, filter: { $0.data(wi, as: Float.self) }, bias: b, output: y)
}

private func prepareConvolution2DTransposeBias(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 1...1)
    guard let raw = ctx.customOptions, raw.count >= 12 else {
        throw ctx.invalid("custom options must hold {padding, stride_width, stride_height} (12 bytes)")
    }
    let padding = raw.loadUnaligned(fromByteOffset: 0, as: Int32.self)
    let strideW = Int(raw.loadUnaligned(fromByteOffset: 4, as: Int32.self))
    let strideH = Int(raw.loadUnaligned(fromByteOffset: 8, as: Int32.self))
    // The options mirror TfLitePadding: 1 = SAME, 2 = VALID.
    guard padding == 1 || padding == 2, strideW > 0, strideH > 0 else {
        throw ctx.invalid("bad options: padding \(padding), strides \(strideH)x\(strideW)")
    }
    try ctx.requireType(input: 0, .float32)
    try ctx.requireType(input: 1, .float32)
    let input = try ctx.nhwc(input: 0), filter = try ctx.nhwc(input: 1)
    guard filter.channels == input.channels else { throw ctx.invalid("filter \(filter.dims) does not match input \(input.dims)") }
    let scheme: PaddingScheme = padding == 1 ? .same : .valid
    let outShape = NHWC(batch: input.batch,
                        height: scheme == .same ? input.height * strideH : (input.height - 1) * strideH + filter.height,
                        width: scheme == .same ? input.width * strideW : (input.width - 1) * strideW + filter.width,
                        channels: filter.batch)
    try ctx.setOutputShape(0, outShape.dims)
    let pad = transposePadding(scheme, input: input, filter: filter, output: outShape, strideH: strideH, strideW: strideW)
    let params = TransposeConvParams(strideHeight: strideH, strideWidth: strideW, paddingTop: pad.top, paddingLeft: pad.left)
    return try transposeConvKernel(&ctx, params: params, input: input, filter: filter, output: outShape,
                                   inputIndex: 0, filterIndex: 1, biasIndex: 2)
}

/// Working memory of a kernel sized only at invoke: it grows to the largest size asked for and
/// is reused by later invocations of the same node (one interpreter runs a node at a time).
private final class GrowingWorkspace {
    private var buffer: AlignedBuffer?

    /// At least `bytes` bytes of memory, valid until the next call.
    func reserve(bytes: Int) -> UnsafeMutableRawPointer {
        if let buffer, buffer.byteCount >= bytes { return buffer.pointer }
        let grown = AlignedBuffer(byteCount: bytes)
        buffer = grown
        return grown.pointer
    }
}

private func prepareTransposeConvQuantized(_ ctx: inout PrepareContext, options o: Schema.TransposeConvOptions, paddingTop: Int, paddingLeft: Int,
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
        TransposeConv.Quantized.reference(params, ConvOperands(input: c.data(xi, as: Int8.self), inputShape: input, filter: c.data(wi, as: Int8.self),
                                          filterShape: filter, bias: optionalData(c, b, as: Int32.self), output: c.data(yi, as: Int8.self),
                                          outputShape: output), scratch: c.scratch.assumingMemoryBound(to: Int32.self))
    }
}
