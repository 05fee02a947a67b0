import Kernels

/// TRANSPOSE_CONV and MediaPipe's `Convolution2DTransposeBias` (the same scatter with a bias,
/// its options stored as a raw `{padding, stride_w, stride_h}` struct in custom_options).
extension PrepareContext {
    /// Padding TFLite applies to a transposed convolution: computed as for a forward
    /// convolution from the output back to the input.
    fileprivate func transposePadding(_ scheme: PaddingScheme, input: NHWC, filter: NHWC, output: NHWC,
                                      strideH: Int, strideW: Int) -> (top: Int, left: Int) {
        let ph = scheme.padding(input: output.height, filter: filter.height, stride: strideH, output: input.height)
        let pw = scheme.padding(input: output.width, filter: filter.width, stride: strideW, output: input.width)
        return (ph.before, pw.before)
    }
}

func prepareTransposeConv(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...4, outputs: 1...1)
    guard case .transposeConvOptions(let o)? = ctx.options else { throw ctx.invalid("missing TransposeConvOptions") }
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
    let pad = ctx.transposePadding(ctx.paddingScheme(o.padding), input: input, filter: filter, output: outShape,
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

private func transposeConvKernel(_ ctx: inout PrepareContext, params: TransposeConvParams, input: NHWC, filter: NHWC, output: NHWC,
                                 inputIndex: Int, filterIndex: Int, biasIndex: Int) throws(InterpreterError) -> NodeKernel {
    let x = try ctx.input(inputIndex).index, w = try ctx.input(filterIndex), y = try ctx.output(0).index
    let b = try ctx.bias(input: biasIndex, channels: output.channels, type: .float32)
    guard !ctx.executor.useReferenceKernels, let constantFilter = w.constantData else {
        let wi = w.index
        return { c in
            TransposeConv.reference(params: params, input: c.data(x, as: Float.self), inputShape: input,
                                    filter: c.data(wi, as: Float.self), filterShape: filter, bias: optionalData(c, b, as: Float.self),
                                    output: c.data(y, as: Float.self), outputShape: output)
        }
    }
    // A constant filter is regrouped and packed once for the GEMM path.
    let optimized = ctx.executor.kernels.floatTransposeConv(params, input, constantFilter.assumingMemoryBound(to: Float.self),
                                                            filter, output, ctx.executor.threads.threadCount)
    ctx.requestScratch(bytes: 4 * optimized.scratchFloatCount)
    ctx.kernelName = optimized.name
    return { c in
        optimized.run(input: c.data(x, as: Float.self), bias: optionalData(c, b, as: Float.self), output: c.data(y, as: Float.self),
                      scratch: c.scratch.assumingMemoryBound(to: Float.self), pool: c.threads)
    }
}

func prepareConvolution2DTransposeBias(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
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
    let pad = ctx.transposePadding(scheme, input: input, filter: filter, output: outShape, strideH: strideH, strideW: strideW)
    let params = TransposeConvParams(strideHeight: strideH, strideWidth: strideW, paddingTop: pad.top, paddingLeft: pad.left)
    return try transposeConvKernel(&ctx, params: params, input: input, filter: filter, output: outShape,
                                   inputIndex: 0, filterIndex: 1, biasIndex: 2)
}
