import Kernels

/// SOFTMAX (with beta) and LOG_SOFTMAX over the last axis.
extension OpRegistry {
    mutating func registerSoftmaxOps() {
        // An int8 SOFTMAX may write int16 probabilities.
        register(.softmax, types: [.float32, .int8, .uInt8], outputTypes: .checkedByOp, prepareSoftmax)
        register(.logSoftmax, types: [.float32, .int8], prepareLogSoftmax)
    }
}

/// The input viewed as rows along its last axis.
private func rows(_ x: TensorInfo) -> (rows: Int, depth: Int) {
    let depth = x.shape.last ?? 1
    return (depth == 0 ? 0 : x.elementCount / depth, depth)
}

private func prepareSoftmax(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    try ctx.setOutputShape(0, x.shape)
    var beta: Float = 1
    if case .softmaxOptions(let o)? = ctx.options { beta = o.beta }
    let (rows, depth) = rows(x)
    let xi = x.index, yi = y.index
    switch x.type {
    case .float32:
        guard y.type == .float32 else { throw ctx.unsupported("SOFTMAX from float32 to \(y.type)") }
        return { c in Softmax.softmax(input: c.data(xi, as: Float.self), rows: rows, depth: depth, beta: beta, output: c.data(yi, as: Float.self)) }
    case .int8, .uInt8:
        let params = QuantizedSoftmaxParams(inputScale: try ctx.affine(x, role: "input").scale, beta: beta,
                                            output: try ctx.affine(y, role: "output"))
        switch (x.type, y.type) {
        case (.int8, .int8):
            return { c in Softmax.Quantized.reference(params, input: c.data(xi, as: Int8.self), output: c.data(yi, as: Int8.self), rows: rows, depth: depth) }
        case (.int8, .int16):
            return { c in Softmax.Quantized.reference(params, input: c.data(xi, as: Int8.self), output: c.data(yi, as: Int16.self), rows: rows, depth: depth) }
        case (.uInt8, .uInt8): break
        case let (a, b): throw ctx.unsupported("SOFTMAX from \(a) to \(b)")
        }
        return { c in Softmax.Quantized.reference(params, input: c.data(xi, as: UInt8.self), output: c.data(yi, as: UInt8.self), rows: rows, depth: depth) }
    case let t:
        throw ctx.unsupported("input type \(t)")
    }
}

private func prepareLogSoftmax(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    try ctx.setOutputShape(0, x.shape)
    let (rows, depth) = rows(x)
    let xi = x.index, yi = y.index
    if x.type == .int8, y.type == .int8 {
        // The integer kernel writes a fixed quantisation: scale 16/256, zero point 127.
        let qy = try ctx.affine(y, role: "output")
        guard qy.scale == 16.0 / 256, qy.zeroPoint == 127 else {
            throw ctx.invalid("int8 output must have scale 16/256 and zero point 127, has \(qy.scale) and \(qy.zeroPoint)")
        }
        let params = Int8LogSoftmaxParams(inputScale: try ctx.affine(x, role: "input").scale)
        return { c in Softmax.Quantized.logSoftmax(params, input: c.data(xi, as: Int8.self), output: c.data(yi, as: Int8.self), rows: rows, depth: depth) }
    }
    guard x.type == .float32, y.type == .float32 else { throw ctx.unsupported("LOG_SOFTMAX on \(x.type)") }
    return { c in Softmax.logSoftmax(input: c.data(xi, as: Float.self), rows: rows, depth: depth, output: c.data(yi, as: Float.self)) }
}
