import Kernels

/// RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR on NHWC tensors, the output size a constant
/// int32 `[height, width]`.
extension OpRegistry {
    mutating func registerResizeOps() {
        register(.resizeBilinear, types: [.float32, .int8, .int16]) { (c) throws(InterpreterError) in try prepareResize(&c, bilinear: true) }
        register(.resizeNearestNeighbor, types: [.float32, .int8, .uInt8, .int16]) { (c) throws(InterpreterError) in try prepareResize(&c, bilinear: false) }
    }
}

private func prepareResize(_ ctx: inout PrepareContext, bilinear: Bool) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    let s = try ctx.nhwc(x, role: "input")
    let size = try ctx.constantIntegers(input: 1)
    guard size.count == 2, size[0] > 0, size[1] > 0 else { throw ctx.invalid("size \(size) must be two positive extents") }
    var alignCorners = false, halfPixel = false
    switch ctx.options {
    case .resizeBilinearOptions(let o)?: (alignCorners, halfPixel) = (o.alignCorners, o.halfPixelCenters)
    case .resizeNearestNeighborOptions(let o)?: (alignCorners, halfPixel) = (o.alignCorners, o.halfPixelCenters)
    default: break
    }
    guard !(alignCorners && halfPixel) else { throw ctx.invalid("align_corners and half_pixel_centers cannot both be set") }
    guard s.height > 0, s.width > 0 else { throw ctx.invalid("input \(x.shape) has an empty spatial axis") }
    let out = NHWC(batch: s.batch, height: size[0], width: size[1], channels: s.channels)
    try ctx.setOutputShape(0, checking: [out.batch, out.height, out.width, out.channels], "output size \(size) overflows")
    if x.type != .float32 {
        guard try ctx.affine(x, role: "input") == ctx.affine(y, role: "output") else {
            throw ctx.unsupported("quantised resize with differing input and output quantization")
        }
    }
    let xi = x.index, yi = y.index
    let options = ResizeOptions(alignCorners: alignCorners, halfPixelCenters: halfPixel)
    let params = ResizeParams(alignCorners: alignCorners, halfPixelCenters: halfPixel)
    func quantized<T: QuantizedElement>(_: T.Type) -> NodeKernel {
        if bilinear {
            return { c in Resize.Quantized.bilinear(options, input: c.data(xi, as: T.self), inputShape: s, output: c.data(yi, as: T.self), outputShape: out) }
        }
        return { c in Resize.Quantized.nearestNeighbor(options, input: c.data(xi, as: T.self), inputShape: s, output: c.data(yi, as: T.self), outputShape: out) }
    }
    switch (x.type, bilinear) {
    case (.float32, true):
        let kernel = Resize.planBilinear(params: params, inputShape: s, outputShape: out, using: ctx.kernelChoice)
        ctx.adopt(kernel)
        return { c in kernel.run(UnaryOperands(input: c.data(xi, as: Float.self), output: c.data(yi, as: Float.self)), c.threads) }
    case (.float32, false):
        return { c in Resize.nearestNeighbor(params: params, input: c.raw(xi), inputShape: s, output: c.raw(yi), outputShape: out, elementSize: 4) }
    case (.int8, _): return quantized(Int8.self)
    case (.uInt8, false): return quantized(UInt8.self)
    case (.int16, _): return quantized(Int16.self)
    case let (t, _): throw ctx.unsupported("\(bilinear ? "RESIZE_BILINEAR" : "RESIZE_NEAREST_NEIGHBOR") on \(t)")
    }
}
