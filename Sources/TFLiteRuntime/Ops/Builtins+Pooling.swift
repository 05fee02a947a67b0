import Kernels

/// AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D.
extension OpRegistry {
    mutating func registerPoolingOps() {
        register(.averagePool2d, types: [.float32, .int8, .uInt8, .int16]) { (ctx) throws(InterpreterError) in try preparePool(&ctx, .average) }
        register(.maxPool2d, types: [.float32, .int8, .uInt8, .int16]) { (ctx) throws(InterpreterError) in try preparePool(&ctx, .max) }
        register(.l2Pool2d, types: [.float32]) { (ctx) throws(InterpreterError) in try preparePool(&ctx, .l2) }
    }
}

/// Which reduction a pooling node applies over its window.
enum PoolKind { case average, max, l2 }

private func preparePool(_ ctx: inout PrepareContext, _ kind: PoolKind) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    guard case .pool2DOptions(let o)? = ctx.options else { throw ctx.invalid("missing Pool2DOptions") }
    let input = try ctx.nhwc(input: 0)
    guard let (geometry, oh, ow) = ConvGeometry.make(
        padding: ctx.paddingScheme(o.padding), inputHeight: input.height, inputWidth: input.width,
        filterHeight: Int(o.filterHeight), filterWidth: Int(o.filterWidth),
        strideHeight: Int(o.strideH), strideWidth: Int(o.strideW))
    else { throw ctx.invalid("window \(o.filterHeight)x\(o.filterWidth) stride \(o.strideH)x\(o.strideW) does not fit input \(input.height)x\(input.width)") }
    let outShape = NHWC(batch: input.batch, height: oh, width: ow, channels: input.channels)
    try ctx.setOutputShape(0, outShape.dims)
    let type = try ctx.input(0).type
    switch type {
    case .float32: break
    case .int8, .uInt8, .int16:
        guard kind != .l2 else { throw ctx.unsupported("L2_POOL_2D on \(type)") }
        return try preparePoolQuantized(&ctx, kind: kind, options: o, geometry: geometry, input: input, output: outShape)
    default: throw ctx.unsupported("input type \(type)")
    }
    let params = PoolParams(geometry: geometry, filterHeight: Int(o.filterHeight), filterWidth: Int(o.filterWidth),
                            activation: try ctx.floatActivation(o.fusedActivationFunction))
    let x = try ctx.input(0).index, y = try ctx.output(0).index
    let reduction: PoolingReduction
    switch kind {
    case .average: reduction = .average
    case .max: reduction = .max
    case .l2:
        return { c in Pooling.l2(params: params, input: c.data(x, as: Float.self), inputShape: input, output: c.data(y, as: Float.self), outputShape: outShape) }
    }
    let kernel = Pooling.plan(reduction, params: params, inputShape: input, outputShape: outShape, using: ctx.kernelChoice)
    ctx.adopt(kernel)
    return { c in kernel.run(UnaryOperands(input: c.data(x, as: Float.self), output: c.data(y, as: Float.self)), c.threads) }
}

private func preparePoolQuantized(_ ctx: inout PrepareContext, kind: PoolKind, options o: Schema.Pool2DOptions, geometry: ConvGeometry,
                                  input: NHWC, output: NHWC) throws(InterpreterError) -> NodeKernel {
    let x = try ctx.input(0), y = try ctx.output(0)
    let inQ = try ctx.affine(x, role: "input"), outQ = try ctx.affine(y, role: "output")
    guard inQ == outQ else { throw ctx.invalid("pooling needs equal input and output quantization") }
    let params = QuantizedPoolParams(geometry: geometry, filterHeight: Int(o.filterHeight), filterWidth: Int(o.filterWidth),
                                     activation: try ctx.quantizedActivation(o.fusedActivationFunction, output: outQ, type: x.type))
    let xi = x.index, yi = y.index
    if kind == .average, x.type == .int8 {
        let kernel = Pooling.Quantized.planAverage(params, inputShape: input, outputShape: output, using: ctx.kernelChoice)
        ctx.adopt(kernel)
        return { c in
            kernel.run(UnaryOperands(input: c.data(xi, as: Int8.self), output: c.data(yi, as: Int8.self)), c.threads)
        }
    }
    func kernel<T: QuantizedElement>(_ t: T.Type) -> NodeKernel {
        switch kind {
        case .average:
            return { c in Pooling.Quantized.average(params, input: c.data(xi, as: T.self), inputShape: input, output: c.data(yi, as: T.self), outputShape: output) }
        default:
            return { c in Pooling.Quantized.maxPool(params, input: c.data(xi, as: T.self), inputShape: input, output: c.data(yi, as: T.self), outputShape: output) }
        }
    }
    switch x.type {
    case .int8: return kernel(Int8.self)
    case .uInt8: return kernel(UInt8.self)
    case .int16: return kernel(Int16.self)
    default: throw ctx.unsupported("pooling on \(x.type)")
    }
}
