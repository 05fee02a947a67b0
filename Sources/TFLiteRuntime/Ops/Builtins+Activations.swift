import Kernels

/// Elementwise activations and unary math: the RELU family, LEAKY_RELU, LOGISTIC, TANH,
/// HARD_SWISH, ELU, GELU, EXP, LOG, SQRT, RSQRT, ABS, NEG, SIN, COS, SQUARE, FLOOR, CEIL,
/// ROUND, SIGN (float32; the integer ones on int32/int64; the activations also quantised), and
/// PRELU.
extension OpRegistry {
    mutating func registerActivationOps() {
        let q: [DataType] = [.float32, .int8, .uInt8]
        register(.relu, types: q + [.int16]) { (c) throws(InterpreterError) in try prepareUnary(&c, .relu) }
        register(.relu6, types: q + [.int16]) { (c) throws(InterpreterError) in try prepareUnary(&c, .relu6) }
        register(.reluN1To1, types: q + [.int16]) { (c) throws(InterpreterError) in try prepareUnary(&c, .reluN1To1) }
        register(.relu0To1, types: q + [.int16]) { (c) throws(InterpreterError) in try prepareUnary(&c, .relu0To1) }
        register(.leakyRelu, types: q + [.int16]) { (c) throws(InterpreterError) in
            guard case .leakyReluOptions(let o)? = c.options else { throw c.invalid("missing LeakyReluOptions") }
            return try prepareUnary(&c, .leakyRelu(alpha: o.alpha))
        }
        register(.logistic, types: q + [.bFloat16]) { (c) throws(InterpreterError) in try prepareUnary(&c, .logistic) }
        register(.tanh, types: q + [.bFloat16]) { (c) throws(InterpreterError) in try prepareUnary(&c, .tanh) }
        register(.hardSwish, types: q) { (c) throws(InterpreterError) in try prepareUnary(&c, .hardSwish) }
        register(.elu, types: q) { (c) throws(InterpreterError) in try prepareUnary(&c, .elu) }
        register(.gelu, types: q) { (c) throws(InterpreterError) in
            var approximate = false
            if case .geluOptions(let o)? = c.options { approximate = o.approximate }
            return try prepareUnary(&c, .gelu(approximate: approximate))
        }
        let float: [DataType] = [.float32]
        register(.exp, types: float + [.int8, .uInt8]) { (c) throws(InterpreterError) in try prepareUnary(&c, .exp) }
        register(.log, types: float + [.int8, .uInt8]) { (c) throws(InterpreterError) in try prepareUnary(&c, .log) }
        register(.sqrt, types: float + [.int8, .int16]) { (c) throws(InterpreterError) in try prepareUnary(&c, .sqrt) }
        register(.rsqrt, types: float + [.int8]) { (c) throws(InterpreterError) in try prepareUnary(&c, .rsqrt) }
        register(.sin, types: float) { (c) throws(InterpreterError) in try prepareUnary(&c, .sin) }
        register(.cos, types: float) { (c) throws(InterpreterError) in try prepareUnary(&c, .cos) }
        register(.floor, types: float + [.bFloat16]) { (c) throws(InterpreterError) in try prepareUnary(&c, .floor) }
        register(.ceil, types: float) { (c) throws(InterpreterError) in try prepareUnary(&c, .ceil) }
        register(.round, types: float) { (c) throws(InterpreterError) in try prepareUnary(&c, .round) }
        let signed: [DataType] = [.float32, .int32, .int64]
        register(.abs, types: signed + [.int8, .int16]) { (c) throws(InterpreterError) in try prepareUnary(&c, .abs) }
        register(.neg, types: signed + [.bFloat16]) { (c) throws(InterpreterError) in try prepareUnary(&c, .negate) }
        register(.square, types: signed) { (c) throws(InterpreterError) in try prepareUnary(&c, .square) }
        register(.sign, types: signed) { (c) throws(InterpreterError) in try prepareUnary(&c, .sign) }
        register(.prelu, types: q, preparePrelu)
    }
}

private func prepareUnary(_ ctx: inout PrepareContext, _ f: UnaryFunction) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    try ctx.setOutputShape(0, x.shape)
    let count = x.elementCount, xi = x.index, yi = y.index
    switch x.type {
    case .float32:
        let kernel = Activations.plan(f, count: count, family: ctx.kernelFamily, using: ctx.kernelChoice)
        ctx.adopt(kernel)
        return { c in kernel.run(UnaryOperands(input: c.data(xi, as: Float.self), output: c.data(yi, as: Float.self)), c.threads) }
    case .int32, .int64:
        let g: IntegerUnaryFunction
        switch f {
        case .abs: g = .abs
        case .negate: g = .negate
        case .square: g = .square
        case .sign: g = .sign
        default: throw ctx.unsupported("\(ctx.opName) on \(x.type)")
        }
        if x.type == .int32 {
            return { c in Activations.apply(g, input: c.data(xi, as: Int32.self), output: c.data(yi, as: Int32.self), count: count) }
        }
        return { c in Activations.apply(g, input: c.data(xi, as: Int64.self), output: c.data(yi, as: Int64.self), count: count) }
    case .int8, .uInt8, .int16:
        return try prepareQuantizedUnary(&ctx, f)
    case .bFloat16 where [.floor, .negate, .logistic, .tanh].contains(f):
        // The unary ops LiteRT 2.3 runs on bfloat16.
        guard y.type == .bFloat16 else { throw ctx.invalid("output type \(y.type) must be BFLOAT16") }
        return { c in Elementwise.bfloat16Unary(f, input: c.data(xi, as: UInt16.self), output: c.data(yi, as: UInt16.self), count: count) }
    case let t:
        throw ctx.unsupported("input type \(t)")
    }
}

private func prepareQuantizedUnary(_ ctx: inout PrepareContext, _ f: UnaryFunction) throws(InterpreterError) -> NodeKernel {
    let x = try ctx.input(0), y = try ctx.output(0)
    let qx = try ctx.affine(x, role: "input"), qy = try ctx.affine(y, role: "output")
    let (qmin, qmax) = try ctx.storageRange(x.type)
    let count = x.elementCount, xi = x.index, yi = y.index

    func relu(_ params: QuantizedReluParams) throws(InterpreterError) -> NodeKernel {
        switch x.type {
        case .int8: return { c in Activations.Quantized.relu(params, input: c.data(xi, as: Int8.self), output: c.data(yi, as: Int8.self), count: count) }
        case .uInt8: return { c in Activations.Quantized.relu(params, input: c.data(xi, as: UInt8.self), output: c.data(yi, as: UInt8.self), count: count) }
        default: return { c in Activations.Quantized.relu(params, input: c.data(xi, as: Int16.self), output: c.data(yi, as: Int16.self), count: count) }
        }
    }
    func lookup(_ make8: (AffineQuantization, AffineQuantization) -> QuantizedLookupTable<Int8>,
                _ makeU8: (AffineQuantization, AffineQuantization) -> QuantizedLookupTable<UInt8>) throws(InterpreterError) -> NodeKernel {
        switch x.type {
        case .int8:
            let table = make8(qx, qy)
            return { c in Activations.Quantized.lookup(table, input: c.data(xi, as: Int8.self), output: c.data(yi, as: Int8.self), count: count) }
        case .uInt8:
            let table = makeU8(qx, qy)
            return { c in Activations.Quantized.lookup(table, input: c.data(xi, as: UInt8.self), output: c.data(yi, as: UInt8.self), count: count) }
        default:
            throw ctx.unsupported("\(ctx.opName) on \(x.type)")
        }
    }

    switch f {
    case .relu: return try relu(.relu(lower: 0, upper: .infinity, input: qx, output: qy, qmin: qmin, qmax: qmax))
    case .relu6: return try relu(.relu(lower: 0, upper: 6, input: qx, output: qy, qmin: qmin, qmax: qmax))
    case .reluN1To1: return try relu(.relu(lower: -1, upper: 1, input: qx, output: qy, qmin: qmin, qmax: qmax))
    case .relu0To1: return try relu(.relu(lower: 0, upper: 1, input: qx, output: qy, qmin: qmin, qmax: qmax))
    case .leakyRelu(let alpha):
        let params = QuantizedReluParams.leakyRelu(alpha: alpha, input: qx, output: qy, qmin: qmin, qmax: qmax)
        switch x.type {
        case .int8: return { c in Activations.Quantized.leakyRelu(params, input: c.data(xi, as: Int8.self), output: c.data(yi, as: Int8.self), count: count) }
        case .uInt8: return { c in Activations.Quantized.leakyRelu(params, input: c.data(xi, as: UInt8.self), output: c.data(yi, as: UInt8.self), count: count) }
        default: return { c in Activations.Quantized.leakyRelu(params, input: c.data(xi, as: Int16.self), output: c.data(yi, as: Int16.self), count: count) }
        }
    case .logistic: return try lookup({ .logistic(input: $0, output: $1) }, { .logistic(input: $0, output: $1) })
    case .tanh: return try lookup({ .tanh(input: $0, output: $1) }, { .tanh(input: $0, output: $1) })
    case .elu: return try lookup({ .elu(input: $0, output: $1) }, { .elu(input: $0, output: $1) })
    case .gelu(let approximate):
        return try lookup({ .gelu(input: $0, output: $1, approximate: approximate) }, { .gelu(input: $0, output: $1, approximate: approximate) })
    case .hardSwish:
        guard let params = QuantizedHardSwishParams.make(input: qx, output: qy) else { throw ctx.unsupported("these HARD_SWISH scales") }
        switch x.type {
        case .int8: return { c in Activations.Quantized.hardSwish(params, input: c.data(xi, as: Int8.self), output: c.data(yi, as: Int8.self), count: count) }
        case .uInt8: return { c in Activations.Quantized.hardSwish(params, input: c.data(xi, as: UInt8.self), output: c.data(yi, as: UInt8.self), count: count) }
        default: throw ctx.unsupported("HARD_SWISH on \(x.type)")
        }
    case .exp: return try lookup({ .exp(input: $0, output: $1) }, { .exp(input: $0, output: $1) })
    case .log: return try lookup({ .log(input: $0, output: $1) }, { .log(input: $0, output: $1) })
    case .abs:
        switch x.type {
        case .int8: return { c in Elementwise.Quantized.absoluteValue(input: c.data(xi, as: Int8.self), inputQuantization: qx, output: c.data(yi, as: Int8.self), outputQuantization: qy, count: count) }
        case .int16: return { c in Elementwise.Quantized.absoluteValue(input: c.data(xi, as: Int16.self), inputQuantization: qx, output: c.data(yi, as: Int16.self), outputQuantization: qy, count: count) }
        default: throw ctx.unsupported("ABS on \(x.type)")
        }
    case .sqrt:
        switch x.type {
        case .int8: return { c in Elementwise.Quantized.squareRoot(input: c.data(xi, as: Int8.self), inputQuantization: qx, output: c.data(yi, as: Int8.self), outputQuantization: qy, count: count) }
        case .int16: return { c in Elementwise.Quantized.squareRoot(input: c.data(xi, as: Int16.self), inputQuantization: qx, output: c.data(yi, as: Int16.self), outputQuantization: qy, count: count) }
        default: throw ctx.unsupported("SQRT on \(x.type)")
        }
    case .rsqrt:
        guard x.type == .int8 else { throw ctx.unsupported("RSQRT on \(x.type)") }
        let params = Int8RsqrtParams(input: qx, output: qy)
        return { c in Elementwise.Quantized.reciprocalSquareRoot(params, input: c.data(xi, as: Int8.self), output: c.data(yi, as: Int8.self), count: count) }
    default:
        throw ctx.unsupported("quantised \(ctx.opName)")
    }
}

private func preparePrelu(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let x = try ctx.input(0), alpha = try ctx.input(1), y = try ctx.output(0)
    guard let plan = BroadcastPlan(lhsShape: x.shape, rhsShape: alpha.shape) else {
        throw ctx.invalid("alpha \(alpha.shape) does not broadcast against input \(x.shape)")
    }
    try ctx.setOutputShape(0, plan.outputShape)
    try ctx.requireSameType(x.type, inputs: [0, 1])
    let xi = x.index, ai = alpha.index, yi = y.index
    switch x.type {
    case .float32:
        let kernel = Activations.planPrelu(plan, using: ctx.kernelChoice)
        ctx.adopt(kernel)
        return { c in kernel.run(BinaryOperands(a: c.data(xi, as: Float.self), b: c.data(ai, as: Float.self), output: c.data(yi, as: Float.self)), c.threads) }
    case .int8, .uInt8:
        let params = QuantizedPreluParams.make(input: try ctx.affine(x, role: "input"), alpha: try ctx.affine(alpha, role: "alpha"),
                                               output: try ctx.affine(y, role: "output"))
        let xs = x.shape, aShape = alpha.shape, outShape = plan.outputShape
        if x.type == .int8 {
            return { c in Activations.Quantized.prelu(params, input: c.data(xi, as: Int8.self), inputShape: xs, alpha: c.data(ai, as: Int8.self), alphaShape: aShape, output: c.data(yi, as: Int8.self), outputShape: outShape) }
        }
        return { c in Activations.Quantized.prelu(params, input: c.data(xi, as: UInt8.self), inputShape: xs, alpha: c.data(ai, as: UInt8.self), alphaShape: aShape, output: c.data(yi, as: UInt8.self), outputShape: outShape) }
    case let t:
        throw ctx.unsupported("input type \(t)")
    }
}
