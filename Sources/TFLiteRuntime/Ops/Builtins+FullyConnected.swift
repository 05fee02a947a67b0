import Kernels

/// FULLY_CONNECTED: float32, quantised (int8, uint8, int16), hybrid (float input, int8 or
/// uint8 weights), and float input with int4 weights: the blockwise form converters give
/// transformer weights (ai-edge-torch's dynamic int4 recipes), and the dynamic-range form with
/// one scale per tensor or per output channel.
extension OpRegistry {
    mutating func registerFullyConnectedOps() {
        register(.fullyConnected, types: [.float32, .int8, .uInt8, .int16], fusions: [.halfPrecisionFilter],
                 prepareFullyConnected)
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
    ctx.flops = checkedProduct([2, batch, outputDepth, inputDepth])

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
    let filter = try ctx.floatFilter(input: 1)
    let params = FullyConnectedParams(activation: try ctx.floatActivation(o.fusedActivationFunction))
    let x = input.index, y = try ctx.output(0).index
    let b = try ctx.bias(input: 2, channels: outputDepth, type: .float32)
    let kernel = FullyConnected.plan(params: params, batch: batch, inputDepth: inputDepth, outputDepth: outputDepth,
                                     weights: filter.planned(weights), using: ctx.kernelChoice)
    let kept = filter.kept(by: kernel)
    return ctx.bind(kernel, input: x, filter: kept.values, bias: b, output: y)
}

private func prepareFullyConnectedQuantized(_ ctx: inout PrepareContext, options o: Schema.FullyConnectedOptions,
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
        let int8Filter = try ctx.int8Filter(w)
        let kernel = FullyConnected.Quantized.plan(params, batch: batch, inputDepth: inputDepth, outputDepth: outputDepth,
                                                   filter: int8Filter.planned(w), bias: ctx.planned(input: 2, as: Int32.self),
                                                   using: ctx.kernelChoice)
        // The kernel holds the filter: an optimised one reads widened int4 weights in place.
        return ctx.bind(kernel, input: xi, filter: int8Filter.values, bias: b, output: yi)
    case .uInt8:
        return { c in
            FullyConnected.Quantized.reference(params, input: c.data(xi, as: UInt8.self), batches: batch, inputDepth: inputDepth,
                                               filter: c.data(wi, as: UInt8.self), outputDepth: outputDepth,
                                               bias: optionalData(c, b, as: Int32.self), output: c.data(yi, as: UInt8.self))
        }
    default:
        throw ctx.unsupported("FULLY_CONNECTED on \(x.type)")
    }
}

private func prepareFullyConnectedHybrid(_ ctx: inout PrepareContext, options o: Schema.FullyConnectedOptions,
                                         batch: Int, inputDepth: Int, outputDepth: Int) throws(InterpreterError) -> NodeKernel {
    let (scales, perChannel) = try ctx.hybridWeightScales(channels: outputDepth, axis: 0)
    let filterScales = perChannel ? scales : [scales[0]]
    let activation = try ctx.floatActivation(o.fusedActivationFunction), asymmetric = o.asymmetricQuantizeInputs
    let b = try ctx.bias(input: 2, channels: outputDepth, type: .float32)
    let w = try ctx.input(1), wi = w.index
    let kernel = FullyConnected.Hybrid.plan(filterScales: filterScales, activation: activation, asymmetricInputs: asymmetric,
                                            batch: batch, inputDepth: inputDepth, outputDepth: outputDepth,
                                            filter: w.planned(as: Int8.self), using: ctx.kernelChoice)
    return ctx.bind(kernel, input: try ctx.input(0).index, filter: { $0.data(wi, as: Int8.self) }, bias: b,
                    output: try ctx.output(0).index)
}

private func prepareFullyConnectedInt4(_ ctx: inout PrepareContext, options o: Schema.FullyConnectedOptions,
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
    let kernel = FullyConnected.BlockwiseInt4.plan(weights: weights, batch: batch, activation: activation, using: ctx.kernelChoice)
    ctx.adopt(kernel)
    return { c in
        kernel.run(FullyConnected.BlockwiseInt4.Operands(input: c.data(x, as: Float.self), bias: optionalData(c, b, as: Float.self),
                                                         output: c.data(yi, as: Float.self),
                                                         scratch: c.scratch.assumingMemoryBound(to: Int8.self)), c.threads)
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
    ctx.kernelName = "fully-connected.f32-i4.reference"
    return { c in
        FullyConnected.Hybrid.reference(filterScales: filterScales, activation: activation, asymmetricInputs: asymmetric,
                                        input: c.data(xi, as: Float.self), batches: batch, inputDepth: inputDepth, filter: .int4(packed),
                                        outputDepth: outputDepth, bias: optionalData(c, b, as: Float.self),
                                        output: c.data(yi, as: Float.self), scratch: c.scratch.assumingMemoryBound(to: Int8.self))
    }
}
