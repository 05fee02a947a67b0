import Kernels

/// Convolutions and matrix products: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED,
/// TRANSPOSE_CONV (and MediaPipe's Convolution2DTransposeBias), BATCH_MATMUL. Float32 is
/// prepared here; each op hands quantised types to its `+Quantized` counterpart.
extension OpRegistry {
    mutating func registerConvOps() {
        register(.conv2d, types: [.float32, .int8, .uInt8, .int16], prepareConv2D)
        register(.depthwiseConv2d, types: [.float32, .int8, .uInt8], prepareDepthwiseConv2D)
        register(.fullyConnected, types: [.float32, .int8, .uInt8, .int16], prepareFullyConnected)
        register(.transposeConv, types: [.float32, .int8, .int16], prepareTransposeConv)
        register(custom: "Convolution2DTransposeBias", types: [.float32], prepareConvolution2DTransposeBias)
        register(.batchMatmul, types: [.float32, .int8], prepareBatchMatMul)
    }
}

extension PrepareContext {
    /// Input `i` as a rank-4 NHWC shape.
    func nhwc(input i: Int) throws(InterpreterError) -> NHWC {
        let t = try input(i)
        guard let s = NHWC(t.shape) else { throw invalid("input \(i) must have rank 4, has shape \(t.shape)") }
        return s
    }

    /// The optional bias input `i` for `channels` outputs, of `type`; nil when omitted.
    func bias(input i: Int, channels: Int, type: DataType) throws(InterpreterError) -> Int? {
        guard let b = optionalInput(i) else { return nil }
        guard b.type == type else { throw invalid("bias has type \(b.type), expected \(type)") }
        guard b.elementCount == channels else { throw invalid("bias has \(b.elementCount) values for \(channels) output channels") }
        return b.index
    }
}

extension PrepareContext {
    /// The tensor a folded residual ADD adds to this convolution's output (see
    /// ``FoldedResidual``) and its channel count: the output's shape, or with a channel PAD
    /// folded too, that many channels fewer. Nil without a fold.
    func foldedResidual(shapedLike output: NHWC) throws(InterpreterError) -> (tensor: Int, channels: Int)? {
        guard let fold = foldedResidual else { return nil }
        let t = executor.info(fold.residual)
        var expected = output.dims
        expected[3] -= fold.channelPadding
        guard t.type == .float32, t.shape == expected else {
            throw invalid("the residual ADD folded into this convolution adds a \(t.type) tensor of shape \(t.shape) "
                          + "to its output of shape \(output.dims)")
        }
        return (fold.residual, expected[3])
    }
}

/// A typed pointer for an optional tensor index.
@inline(__always)
func optionalData<T>(_ c: InvokeContext, _ index: Int?, as: T.Type) -> UnsafePointer<T>? {
    index.map { UnsafePointer(c.data($0, as: T.self)) }
}

private func prepareConv2D(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...3, outputs: 1...1)
    guard case .conv2DOptions(let o)? = ctx.options else { throw ctx.invalid("missing Conv2DOptions") }
    let input = try ctx.nhwc(input: 0), filter = try ctx.nhwc(input: 1)
    guard filter.channels > 0, input.channels > 0, input.channels % filter.channels == 0 else {
        throw ctx.invalid("input has \(input.channels) channels, not a positive multiple of the filter's \(filter.channels)")
    }
    let groups = input.channels / filter.channels
    guard filter.batch % groups == 0 else { throw ctx.invalid("\(filter.batch) output channels do not split into \(groups) groups") }
    guard let (geometry, oh, ow) = ctx.convolutionGeometry(
        padding: ctx.paddingScheme(o.padding), input: input,
        filterHeight: filter.height, filterWidth: filter.width,
        strideHeight: Int(o.strideH), strideWidth: Int(o.strideW),
        dilationHeight: Int(o.dilationHFactor), dilationWidth: Int(o.dilationWFactor))
    else { throw ctx.invalid("window \(filter.height)x\(filter.width) stride \(o.strideH)x\(o.strideW) does not fit input \(input.height)x\(input.width)") }
    let outShape = NHWC(batch: input.batch, height: oh, width: ow, channels: filter.batch)
    try ctx.setOutputShape(0, outShape.dims)

    switch try ctx.input(0).type {
    case .float32: break
    case .int8, .uInt8, .int16:
        return try prepareConv2DQuantized(&ctx, options: o, geometry: geometry, input: input, filter: filter, output: outShape)
    case let t: throw ctx.unsupported("input type \(t)")
    }
    let filterType = try ctx.input(1).type
    if filterType == .int8 || filterType == .int4 {
        return try prepareConv2DHybrid(&ctx, options: o, geometry: geometry, input: input, filter: filter, output: outShape)
    }
    try ctx.requireType(input: 1, .float32)
    let params = Conv2DParams(geometry: geometry, activation: try ctx.floatActivation(o.fusedActivationFunction))
    let x = try ctx.input(0).index, w = try ctx.input(1), y = try ctx.output(0).index
    let b = try ctx.bias(input: 2, channels: filter.batch, type: .float32)

    let residual = try ctx.foldedResidual(shapedLike: outShape)

    let threadCount = ctx.executor.threads.threadCount
    let optimized = ctx.executor.useReferenceKernels ? nil : w.constantData.flatMap {
        ctx.executor.kernels.floatConv2D(params, input, $0.assumingMemoryBound(to: Float.self), filter, outShape, threadCount)
    }
    guard let optimized else {
        let wi = w.index
        guard let residual else {
            return { c in
                Conv2D.reference(params: params, input: c.data(x, as: Float.self), inputShape: input,
                                 filter: c.data(wi, as: Float.self), filterShape: filter, bias: optionalData(c, b, as: Float.self),
                                 output: c.data(y, as: Float.self), outputShape: outShape)
            }
        }
        // A grouped convolution, or a filter computed at run time, with a folded residual:
        // the reference kernel, then the ADD (of zeros past the residual's channels).
        let linear = Conv2DParams(geometry: geometry, activation: ActivationRange(min: -.infinity, max: .infinity))
        let n = outShape.channels
        return { c in
            let out = c.data(y, as: Float.self), skip = c.data(residual.tensor, as: Float.self)
            Conv2D.reference(params: linear, input: c.data(x, as: Float.self), inputShape: input,
                             filter: c.data(wi, as: Float.self), filterShape: filter, bias: optionalData(c, b, as: Float.self),
                             output: out, outputShape: outShape)
            for pixel in 0..<(outShape.elementCount / Swift.max(1, n)) {
                for k in 0..<n {
                    let add = k < residual.channels ? skip[pixel * residual.channels + k] : 0
                    out[pixel * n + k] = params.activation.clamp(out[pixel * n + k] + add)
                }
            }
        }
    }
    ctx.requestScratch(bytes: 4 * optimized.scratchFloatCount)
    ctx.kernelName = optimized.name
    return { c in
        optimized.run(input: c.data(x, as: Float.self), bias: optionalData(c, b, as: Float.self),
                      residual: residual.map { GEMMResidual(base: c.data($0.tensor, as: Float.self), channels: $0.channels) },
                      output: c.data(y, as: Float.self), scratch: c.scratch.assumingMemoryBound(to: Float.self), pool: c.threads)
    }
}

private func prepareDepthwiseConv2D(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...3, outputs: 1...1)
    guard case .depthwiseConv2DOptions(let o)? = ctx.options else { throw ctx.invalid("missing DepthwiseConv2DOptions") }
    let input = try ctx.nhwc(input: 0), filter = try ctx.nhwc(input: 1)
    guard filter.batch == 1, input.channels > 0, filter.channels % input.channels == 0 else {
        throw ctx.invalid("filter \(filter.dims) does not match input channels \(input.channels)")
    }
    let multiplier = filter.channels / input.channels
    guard let (geometry, oh, ow) = ctx.convolutionGeometry(
        padding: ctx.paddingScheme(o.padding), input: input,
        filterHeight: filter.height, filterWidth: filter.width,
        strideHeight: Int(o.strideH), strideWidth: Int(o.strideW),
        dilationHeight: Int(o.dilationHFactor), dilationWidth: Int(o.dilationWFactor))
    else { throw ctx.invalid("window does not fit the input") }
    let outShape = NHWC(batch: input.batch, height: oh, width: ow, channels: filter.channels)
    try ctx.setOutputShape(0, outShape.dims)

    switch try ctx.input(0).type {
    case .float32: break
    case .int8, .uInt8, .int16:
        return try prepareDepthwiseConv2DQuantized(&ctx, options: o, geometry: geometry, depthMultiplier: multiplier,
                                                   input: input, filter: filter, output: outShape)
    case let t: throw ctx.unsupported("input type \(t)")
    }
    if try ctx.input(1).type == .int8 {
        return try prepareDepthwiseConv2DHybrid(&ctx, options: o, geometry: geometry, depthMultiplier: multiplier,
                                                input: input, filter: filter, output: outShape)
    }
    try ctx.requireType(input: 1, .float32)
    let params = DepthwiseConv2DParams(geometry: geometry, depthMultiplier: multiplier,
                                       activation: try ctx.floatActivation(o.fusedActivationFunction))
    let x = try ctx.input(0).index, w = try ctx.input(1).index, y = try ctx.output(0).index
    let b = try ctx.bias(input: 2, channels: filter.channels, type: .float32)
    if ctx.executor.useReferenceKernels {
        return { c in
            DepthwiseConv2D.reference(params: params, input: c.data(x, as: Float.self), inputShape: input,
                                      filter: c.data(w, as: Float.self), filterShape: filter, bias: optionalData(c, b, as: Float.self),
                                      output: c.data(y, as: Float.self), outputShape: outShape)
        }
    }
    let optimized = ctx.executor.kernels.floatDepthwiseConv2D(params, input, filter, outShape, ctx.executor.threads.threadCount)
    let scratchFloats = optimized.scratchFloatCount
    ctx.kernelName = optimized.name
    ctx.requestScratch(bytes: 4 * scratchFloats)
    return { c in
        optimized.run(input: c.data(x, as: Float.self), filter: c.data(w, as: Float.self), bias: optionalData(c, b, as: Float.self),
                      output: c.data(y, as: Float.self),
                      scratch: scratchFloats > 0 ? c.scratch.assumingMemoryBound(to: Float.self) : nil, pool: c.threads)
    }
}

private func prepareFullyConnected(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...3, outputs: 1...1)
    let o: Schema.FullyConnectedOptions
    if case .fullyConnectedOptions(let opts)? = ctx.options { o = opts } else { o = Schema.FullyConnectedOptions() }
    guard o.weightsFormat == .default else { throw ctx.unsupported("shuffled weights format") }
    let input = try ctx.input(0), weights = try ctx.input(1)
    guard weights.rank == 2 else { throw ctx.invalid("weights must have rank 2, have shape \(weights.shape)") }
    let outputDepth = weights.shape[0], inputDepth = weights.shape[1]
    guard inputDepth > 0, input.elementCount % inputDepth == 0 else {
        throw ctx.invalid("input \(input.shape) does not divide into rows of \(inputDepth)")
    }
    let batch = input.elementCount / inputDepth
    var outShape = [batch, outputDepth]
    if o.keepNumDims {
        guard input.shape.last == inputDepth else { throw ctx.invalid("keep_num_dims needs the input's last dimension to be \(inputDepth)") }
        outShape = Array(input.shape.dropLast()) + [outputDepth]
    }
    try ctx.setOutputShape(0, outShape)

    switch input.type {
    case .float32: break
    case .int8, .uInt8, .int16:
        return try prepareFullyConnectedQuantized(&ctx, options: o, batch: batch, inputDepth: inputDepth, outputDepth: outputDepth)
    case let t: throw ctx.unsupported("input type \(t)")
    }
    if weights.type == .int4 {
        return try prepareFullyConnectedInt4(&ctx, options: o, batch: batch, inputDepth: inputDepth, outputDepth: outputDepth)
    }
    if weights.type == .int8 || weights.type == .uInt8 {
        return try prepareFullyConnectedHybrid(&ctx, options: o, batch: batch, inputDepth: inputDepth, outputDepth: outputDepth)
    }
    try ctx.requireType(input: 1, .float32)
    let params = FullyConnectedParams(activation: try ctx.floatActivation(o.fusedActivationFunction))
    let x = input.index, y = try ctx.output(0).index
    let b = try ctx.bias(input: 2, channels: outputDepth, type: .float32)
    if ctx.executor.useReferenceKernels || weights.constantData == nil {
        let w = weights.index
        return { c in
            FullyConnected.reference(params: params, input: c.data(x, as: Float.self), batch: batch, inputDepth: inputDepth,
                                     weights: c.data(w, as: Float.self), outputDepth: outputDepth,
                                     bias: optionalData(c, b, as: Float.self), output: c.data(y, as: Float.self))
        }
    }
    let optimized = ctx.executor.kernels.floatFullyConnected(params, weights.constantData!.assumingMemoryBound(to: Float.self),
                                                             batch, inputDepth, outputDepth)
    ctx.kernelName = optimized.name
    return { c in
        optimized.run(input: c.data(x, as: Float.self), bias: optionalData(c, b, as: Float.self), output: c.data(y, as: Float.self),
                      pool: c.threads)
    }
}
