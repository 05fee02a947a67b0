import Kernels

/// Binary arithmetic with NumPy broadcasting: ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM,
/// SQUARED_DIFFERENCE, POW, FLOOR_DIV, FLOOR_MOD over float32, int32 and int64, and the
/// quantised ADD, SUB and MUL.
extension OpRegistry {
    mutating func registerArithmeticOps() {
        let numeric: [DataType] = [.float32, .int32, .int64]
        let quantized: [DataType] = [.int8, .uInt8, .int16]
        register(.add, types: numeric + quantized, outputTypes: .retypedAs(input: 0), fusions: [.activation]) { (c) throws(InterpreterError) in
            try prepareBinary(&c, .add)
        }
        register(.sub, types: numeric + quantized, outputTypes: .retypedAs(input: 0)) { (c) throws(InterpreterError) in try prepareBinary(&c, .subtract) }
        register(.mul, types: numeric + quantized, outputTypes: .retypedAs(input: 0)) { (c) throws(InterpreterError) in try prepareBinary(&c, .multiply) }
        register(.div, types: numeric) { (c) throws(InterpreterError) in try prepareBinary(&c, .divide) }
        register(.maximum, types: numeric + quantized + [.bFloat16]) { (c) throws(InterpreterError) in try prepareBinary(&c, .maximum) }
        register(.minimum, types: numeric + quantized + [.bFloat16]) { (c) throws(InterpreterError) in try prepareBinary(&c, .minimum) }
        register(.squaredDifference, types: numeric + quantized) { (c) throws(InterpreterError) in try prepareBinary(&c, .squaredDifference) }
        register(.pow, types: numeric) { (c) throws(InterpreterError) in try prepareBinary(&c, .power) }
        register(.floorDiv, types: numeric) { (c) throws(InterpreterError) in try prepareBinary(&c, .floorDivide) }
        register(.floorMod, types: numeric) { (c) throws(InterpreterError) in try prepareBinary(&c, .floorModulo) }
    }
}

/// The integer clamp of a fused activation for int32/int64 arithmetic.
private func integerActivation<T: FixedWidthInteger>(_ f: Schema.ActivationFunctionType, _ ctx: PrepareContext) throws(InterpreterError) -> ActivationRange<T> {
    switch FusedActivation(f) {
    case .none: return ActivationRange(min: T.min, max: T.max)
    case .relu: return ActivationRange(min: 0, max: T.max)
    case .relu6: return ActivationRange(min: 0, max: 6)
    case .reluN1To1: return ActivationRange(min: -1, max: 1)
    default: throw ctx.unsupported("fused activation \(f) on integers")
    }
}

private func prepareBinary(_ ctx: inout PrepareContext, _ op: BinaryOperator) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let a = try ctx.input(0), b = try ctx.input(1), y = try ctx.output(0)
    guard a.rank <= 6, b.rank <= 6, let plan = BroadcastPlan(lhsShape: a.shape, rhsShape: b.shape) else {
        throw ctx.invalid("shapes \(a.shape) and \(b.shape) do not broadcast (rank at most 6)")
    }
    try ctx.setOutputShape(0, plan.outputShape)
    guard a.type == b.type, y.type == a.type else { throw ctx.invalid("input types \(a.type), \(b.type) and output \(y.type) differ") }
    let ai = a.index, bi = b.index, yi = y.index
    switch a.type {
    case .float32:
        // Only ADD accepts a fused activation node, and only on float tensors.
        let act = try ctx.floatActivation(ctx.fusions.activation ?? ctx.binaryActivation)
        let kernel = Elementwise.plan(op, plan: plan, activation: act, family: ctx.kernelFamily, using: ctx.kernelChoice)
        ctx.adopt(kernel)
        return { c in kernel.run(BinaryOperands(a: c.data(ai, as: Float.self), b: c.data(bi, as: Float.self), output: c.data(yi, as: Float.self)), c.threads) }
    case .int32:
        let act: ActivationRange<Int32> = try integerActivation(ctx.binaryActivation, ctx)
        return { c in Elementwise.binary(op, lhs: c.data(ai, as: Int32.self), rhs: c.data(bi, as: Int32.self), plan: plan, activation: act, output: c.data(yi, as: Int32.self)) }
    case .int64:
        let act: ActivationRange<Int64> = try integerActivation(ctx.binaryActivation, ctx)
        return { c in Elementwise.binary(op, lhs: c.data(ai, as: Int64.self), rhs: c.data(bi, as: Int64.self), plan: plan, activation: act, output: c.data(yi, as: Int64.self)) }
    case .int8, .uInt8, .int16:
        return try prepareQuantizedBinary(&ctx, op, plan: plan)
    case .bFloat16 where op == .maximum || op == .minimum:
        return { c in Elementwise.bfloat16Binary(op, lhs: c.data(ai, as: UInt16.self), rhs: c.data(bi, as: UInt16.self), plan: plan,
                                                 output: c.data(yi, as: UInt16.self)) }
    case let t:
        throw ctx.unsupported("input type \(t)")
    }
}

private func prepareQuantizedBinary(_ ctx: inout PrepareContext, _ op: BinaryOperator, plan: BroadcastPlan) throws(InterpreterError) -> NodeKernel {
    let a = try ctx.input(0), b = try ctx.input(1), y = try ctx.output(0)
    let qa = try ctx.affine(a, role: "input 0"), qb = try ctx.affine(b, role: "input 1"), qy = try ctx.affine(y, role: "output")
    let (qmin, qmax) = try ctx.storageRange(a.type)
    let activation = FusedActivation(ctx.binaryActivation)
    let ai = a.index, bi = b.index, yi = y.index
    let aShape = a.shape, bShape = b.shape, outShape = plan.outputShape
    switch op {
    case .add, .subtract:
        let leftShift = a.type == .int16 ? 15 : 20
        guard let params = QuantizedAddParams.make(input1: qa, input2: qb, output: qy, activation: activation,
                                                   qmin: qmin, qmax: qmax, leftShift: leftShift)
        else { throw ctx.unsupported("these input/output scales or activation \(ctx.binaryActivation)") }
        let rescaledOp: RescaledBinaryOperator = op == .add ? .add : .subtract
        func kernel<T: QuantizedElement>(_: T.Type) -> NodeKernel {
            { c in Elementwise.Quantized.rescaledBinary(rescaledOp, params, c.data(ai, as: T.self), shape: aShape, c.data(bi, as: T.self), shape: bShape, output: c.data(yi, as: T.self), outputShape: outShape) }
        }
        switch a.type {
        case .int8:
            guard op == .add else { return kernel(Int8.self) }
            let planned = Elementwise.Quantized.planAdd(params, aShape: aShape, bShape: bShape, outputShape: outShape,
                                                        using: ctx.kernelChoice)
            ctx.adopt(planned)
            return { c in
                planned.run(BinaryOperands(a: c.data(ai, as: Int8.self), b: c.data(bi, as: Int8.self), output: c.data(yi, as: Int8.self)),
                            c.threads)
            }
        case .uInt8: return kernel(UInt8.self)
        default: return kernel(Int16.self)
        }
    case .multiply:
        guard let params = QuantizedMulParams.make(input1: qa, input2: qb, output: qy, activation: activation, qmin: qmin, qmax: qmax)
        else { throw ctx.unsupported("these input/output scales or activation \(ctx.binaryActivation)") }
        func kernel<T: QuantizedElement>(_: T.Type) -> NodeKernel {
            { c in Elementwise.Quantized.mul(params, c.data(ai, as: T.self), shape: aShape, c.data(bi, as: T.self), shape: bShape, output: c.data(yi, as: T.self), outputShape: outShape) }
        }
        switch a.type {
        case .int8: return kernel(Int8.self)
        case .uInt8: return kernel(UInt8.self)
        default: return kernel(Int16.self)
        }
    case .maximum, .minimum:
        // A comparison of stored values, meaningful only when all three tensors share one
        // quantisation (the converter arranges it).
        guard qa == qy, qb == qy else { throw ctx.unsupported("quantised \(op) with differing input and output quantization") }
        let isMax = op == .maximum
        func kernel<T: QuantizedElement>(_: T.Type) -> NodeKernel {
            { c in Elementwise.Quantized.maximumMinimum(largest: isMax, c.data(ai, as: T.self), shape: aShape, c.data(bi, as: T.self), shape: bShape, output: c.data(yi, as: T.self), outputShape: outShape) }
        }
        switch a.type {
        case .int8: return kernel(Int8.self)
        case .uInt8: return kernel(UInt8.self)
        default: return kernel(Int16.self)
        }
    case .squaredDifference:
        guard a.type != .int16 else { throw ctx.unsupported("quantised SQUARED_DIFFERENCE on INT16") }
        let params = QuantizedAddParams.makeSquaredDifference(input1: qa, input2: qb, output: qy, qmin: qmin, qmax: qmax)
        func kernel<T: QuantizedElement>(_: T.Type) -> NodeKernel {
            { c in Elementwise.Quantized.rescaledBinary(.squaredDifference, params, c.data(ai, as: T.self), shape: aShape, c.data(bi, as: T.self), shape: bShape, output: c.data(yi, as: T.self), outputShape: outShape) }
        }
        return a.type == .int8 ? kernel(Int8.self) : kernel(UInt8.self)
    default:
        throw ctx.unsupported("quantised \(op) on \(a.type)")
    }
}
