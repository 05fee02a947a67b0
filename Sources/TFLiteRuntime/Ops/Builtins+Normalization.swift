import Kernels

/// L2_NORMALIZATION and LOCAL_RESPONSE_NORMALIZATION over the last axis.
extension OpRegistry {
    mutating func registerNormalizationOps() {
        register(.l2Normalization, types: [.float32, .int8], prepareL2Normalization)
        register(.localResponseNormalization, types: [.float32], prepareLocalResponseNormalization)
    }
}

/// The row count and depth of a tensor normalised along its last axis.
private func rows(_ ctx: PrepareContext, _ x: TensorInfo) throws(InterpreterError) -> (rows: Int, depth: Int) {
    guard x.rank >= 1 else { throw ctx.invalid("input must have rank at least 1") }
    let depth = x.shape[x.rank - 1]
    return (depth == 0 ? 0 : x.elementCount / depth, depth)
}

private func prepareL2Normalization(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    if case .l2NormOptions(let o)? = ctx.options, o.fusedActivationFunction != .none {
        throw ctx.unsupported("fused activation \(o.fusedActivationFunction) on L2_NORMALIZATION")
    }
    let (n, depth) = try rows(ctx, x)
    try ctx.setOutputShape(0, x.shape)
    let xi = x.index, yi = y.index
    switch x.type {
    case .float32:
        return { c in L2Normalization.apply(input: c.data(xi, as: Float.self), rows: n, depth: depth, output: c.data(yi, as: Float.self)) }
    case .int8:
        // The integer kernel writes a fixed quantisation: scale 1/128, zero point 0.
        let qy = try ctx.affine(y, role: "output")
        guard qy.zeroPoint == 0, qy.scale == 1.0 / 128 else {
            throw ctx.invalid("int8 output must have scale 1/128 and zero point 0, has \(qy.scale) and \(qy.zeroPoint)")
        }
        let zp = try ctx.affine(x, role: "input").zeroPoint
        return { c in L2Normalization.Quantized.reference(inputZeroPoint: zp, input: c.data(xi, as: Int8.self), output: c.data(yi, as: Int8.self), rows: n, depth: depth) }
    case let t:
        throw ctx.unsupported("input type \(t)")
    }
}

private func prepareLocalResponseNormalization(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    try ctx.requireType(input: 0, .float32)
    guard x.rank == 4 else { throw ctx.invalid("input must have rank 4, has shape \(x.shape)") }
    guard case .localResponseNormalizationOptions(let o)? = ctx.options else { throw ctx.invalid("missing LocalResponseNormalizationOptions") }
    guard o.radius >= 0 else { throw ctx.invalid("radius \(o.radius) must not be negative") }
    let params = LocalResponseNormalizationParams(radius: Int(o.radius), bias: o.bias, alpha: o.alpha, beta: o.beta)
    let (n, depth) = try rows(ctx, x)
    try ctx.setOutputShape(0, x.shape)
    let xi = x.index, yi = y.index
    return { c in LocalResponseNormalization.apply(params: params, input: c.data(xi, as: Float.self), rows: n, depth: depth, output: c.data(yi, as: Float.self)) }
}
