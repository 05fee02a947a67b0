import Kernels

/// CONV_2D and DEPTHWISE_CONV_2D. Float32 is prepared first; quantised inputs and hybrid
/// (float input, int8 or int4 filter) nodes go on to their own preparers below, once shapes
/// and geometry are checked.
extension OpRegistry {
    mutating func registerConvOps() {
        register(.conv2d, types: [.float32, .int8, .uInt8, .int16],
                 fusions: [.activation, .padding, .residualAdd, .halfPrecisionFilter], prepareConv2D)
        register(.depthwiseConv2d, types: [.float32, .int8, .uInt8], fusions: [.activation, .padding], prepareDepthwiseConv2D)
    }
}

/// The window options CONV_2D and DEPTHWISE_CONV_2D share, so that one function turns either
/// into the convolution's geometry.
private protocol ConvWindowOptions {
    var padding: Schema.Padding { get }
    var strideH: Int32 { get }
    var strideW: Int32 { get }
    var dilationHFactor: Int32 { get }
    var dilationWFactor: Int32 { get }
}

extension Schema.Conv2DOptions: ConvWindowOptions {}
extension Schema.DepthwiseConv2DOptions: ConvWindowOptions {}

extension PrepareContext {
    /// The geometry of `filter`'s window over `input` under the node's options, nil when it does not fit.
    fileprivate func convolutionGeometry(_ o: some ConvWindowOptions, input: NHWC, filter: NHWC)
        -> (geometry: ConvGeometry, outputHeight: Int, outputWidth: Int)? {
        convolutionGeometry(padding: paddingScheme(o.padding), input: input,
                            filterHeight: filter.height, filterWidth: filter.width,
                            strideHeight: Int(o.strideH), strideWidth: Int(o.strideW),
                            dilationHeight: Int(o.dilationHFactor), dilationWidth: Int(o.dilationWFactor))
    }
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
    guard let (geometry, oh, ow) = ctx.convolutionGeometry(o, input: input, filter: filter) else {
        throw ctx.invalid("window \(filter.height)x\(filter.width) stride \(o.strideH)x\(o.strideW) does not fit input \(input.height)x\(input.width)")
    }
    let outShape = NHWC(batch: input.batch, height: oh, width: ow, channels: filter.batch)
    try ctx.setOutputShape(0, outShape.dims)
    ctx.flops = checkedProduct([2, outShape.elementCount, filter.height, filter.width, filter.channels])

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
    let weights = try ctx.floatFilter(input: 1)
    let params = Conv2DParams(geometry: geometry,
                              activation: try ctx.floatActivation(ctx.fusions.activation ?? o.fusedActivationFunction))
    let x = try ctx.input(0).index, w = try ctx.input(1), y = try ctx.output(0).index
    let b = try ctx.bias(input: 2, channels: filter.batch, type: .float32)

    let residual = try ctx.foldedResidual(shapedLike: outShape)
    let kernel = Conv2D.plan(params: params, inputShape: input, filter: weights.planned(w), filterShape: filter,
                             outputShape: outShape, threadCount: ctx.executor.threads.threadCount, using: ctx.kernelChoice)
    let kept = weights.kept(by: kernel)
    return ctx.bind(kernel, input: x, filter: kept.values, bias: b, output: y, residual: residual)
}

private func prepareDepthwiseConv2D(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...3, outputs: 1...1)
    guard case .depthwiseConv2DOptions(let o)? = ctx.options else { throw ctx.invalid("missing DepthwiseConv2DOptions") }
    let input = try ctx.nhwc(input: 0), filter = try ctx.nhwc(input: 1)
    guard filter.batch == 1, input.channels > 0, filter.channels % input.channels == 0 else {
        throw ctx.invalid("filter \(filter.dims) does not match input channels \(input.channels)")
    }
    let multiplier = filter.channels / input.channels
    guard let (geometry, oh, ow) = ctx.convolutionGeometry(o, input: input, filter: filter) else {
        throw ctx.invalid("window does not fit the input")
    }
    let outShape = NHWC(batch: input.batch, height: oh, width: ow, channels: filter.channels)
    try ctx.setOutputShape(0, outShape.dims)
    ctx.flops = checkedProduct([2, outShape.elementCount, filter.height, filter.width])

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
                                       activation: try ctx.floatActivation(ctx.fusions.activation ?? o.fusedActivationFunction))
    let x = try ctx.input(0).index, w = try ctx.input(1).index, y = try ctx.output(0).index
    let b = try ctx.bias(input: 2, channels: filter.channels, type: .float32)
    let kernel = DepthwiseConv2D.plan(params: params, inputShape: input, filterShape: filter, outputShape: outShape,
                                      threadCount: ctx.executor.threads.threadCount, using: ctx.kernelChoice)
    return ctx.bind(kernel, input: x, filter: { $0.data(w, as: Float.self) }, bias: b, output: y)
}

private func prepareConv2DQuantized(_ ctx: inout PrepareContext, options o: Schema.Conv2DOptions, geometry: ConvGeometry,
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
        let int8Filter = try ctx.int8Filter(w)
        let kernel = Conv2D.Quantized.plan(params, inputShape: input, filter: int8Filter.planned(w), filterShape: filter,
                                           bias: ctx.planned(input: 2, as: Int32.self), outputShape: output,
                                           threadCount: ctx.executor.threads.threadCount, using: ctx.kernelChoice)
        return ctx.bind(kernel, input: xi, filter: int8Filter.values, bias: b, output: yi)
    case (.uInt8, .uInt8):
        let b = try ctx.bias(input: 2, channels: filter.batch, type: .int32)
        return { c in
            Conv2D.Quantized.reference(params, ConvOperands(input: c.data(xi, as: UInt8.self), inputShape: input, filter: c.data(wi, as: UInt8.self),
                                       filterShape: filter, bias: optionalData(c, b, as: Int32.self), output: c.data(yi, as: UInt8.self), outputShape: output))
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
                    Conv2D.Int16x8.reference(params, ConvOperands(input: c.data(xi, as: Int16.self), inputShape: input, filter: c.data(wi, as: Int8.self),
                                             filterShape: filter, bias: bp.baseAddress, output: c.data(yi, as: Int16.self), outputShape: output))
                }
            } else {
                Conv2D.Int16x8.reference(params, ConvOperands(input: c.data(xi, as: Int16.self), inputShape: input, filter: c.data(wi, as: Int8.self),
                                         filterShape: filter, bias: nil, output: c.data(yi, as: Int16.self), outputShape: output))
            }
        }
    default:
        throw ctx.unsupported("CONV_2D with \(x.type) input and \(w.type) weights")
    }
}

private func prepareDepthwiseConv2DQuantized(_ ctx: inout PrepareContext, options o: Schema.DepthwiseConv2DOptions, geometry: ConvGeometry,
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
        let int8Filter = try ctx.int8Filter(w)
        let kernel = DepthwiseConv2D.Quantized.plan(params, depthMultiplier: depthMultiplier, inputShape: input,
                                                    filter: int8Filter.planned(w), filterShape: filter,
                                                    bias: ctx.planned(input: 2, as: Int32.self), outputShape: output,
                                                    threadCount: ctx.executor.threads.threadCount, using: ctx.kernelChoice)
        return ctx.bind(kernel, input: xi, filter: int8Filter.values, bias: b, output: yi)
    case .uInt8:
        return { c in
            DepthwiseConv2D.Quantized.reference(params, depthMultiplier: depthMultiplier, ConvOperands(input: c.data(xi, as: UInt8.self), inputShape: input,
                                                filter: c.data(wi, as: UInt8.self), filterShape: filter, bias: optionalData(c, b, as: Int32.self),
                                                output: c.data(yi, as: UInt8.self), outputShape: output))
        }
    default:
        throw ctx.unsupported("DEPTHWISE_CONV_2D on \(x.type)")
    }
}

private func prepareConv2DHybrid(_ ctx: inout PrepareContext, options o: Schema.Conv2DOptions, geometry: ConvGeometry,
                                 input: NHWC, filter: NHWC, output: NHWC) throws(InterpreterError) -> NodeKernel {
    let (scales, perChannel) = try ctx.hybridWeightScales(channels: filter.batch, axis: 0, acceptsInt4: true)
    // LiteRT quantises the input asymmetrically on its per-channel path, symmetrically otherwise.
    let params = HybridConvParams(geometry: geometry, filterScales: scales,
                                  activation: try ctx.floatActivation(ctx.fusions.activation ?? o.fusedActivationFunction),
                                  asymmetricInputs: perChannel)
    let b = try ctx.bias(input: 2, channels: filter.batch, type: .float32)
    let w = try ctx.input(1), int8Filter = try ctx.int8Filter(w)
    let kernel = Conv2D.Hybrid.plan(params, inputShape: input, filter: int8Filter.planned(w), filterShape: filter,
                                    outputShape: output, threadCount: ctx.executor.threads.threadCount, using: ctx.kernelChoice)
    return ctx.bind(kernel, input: try ctx.input(0).index, filter: int8Filter.values, bias: b, output: try ctx.output(0).index)
}

private func prepareDepthwiseConv2DHybrid(_ ctx: inout PrepareContext, options o: Schema.DepthwiseConv2DOptions, geometry: ConvGeometry,
                                          depthMultiplier: Int, input: NHWC, filter: NHWC, output: NHWC) throws(InterpreterError) -> NodeKernel {
    let (scales, perChannel) = try ctx.hybridWeightScales(channels: filter.channels, axis: 3)
    let params = HybridConvParams(geometry: geometry, filterScales: scales,
                                  activation: try ctx.floatActivation(ctx.fusions.activation ?? o.fusedActivationFunction),
                                  asymmetricInputs: perChannel)
    let b = try ctx.bias(input: 2, channels: filter.channels, type: .float32)
    let w = try ctx.input(1)
    let kernel = DepthwiseConv2D.Hybrid.plan(params, depthMultiplier: depthMultiplier, inputShape: input, filter: w.planned(as: Int8.self),
                                             filterShape: filter, outputShape: output, threadCount: ctx.executor.threads.threadCount,
                                             using: ctx.kernelChoice)
    let wi = w.index
    return ctx.bind(kernel, input: try ctx.input(0).index, filter: { $0.data(wi, as: Int8.self) }, bias: b, output: try ctx.output(0).index)
}
