import Kernels

/// The elementwise StableHLO operators LiteRT's builtin resolver runs. The other StableHLO
/// families (and the two TFLite builtins that share their kernels, DILATE and REDUCE_WINDOW)
/// live in `Builtins+StableHLO<Family>.swift`.
extension OpRegistry {
    static let stableHLOIntegerTypes: [DataType] = [.int8, .int16, .int32, .int64, .uInt8, .uInt16, .uInt32, .uInt64]
    static let stableHLOElementTypes: [DataType] = [.float16, .float32, .float64] + stableHLOIntegerTypes + [.bool]

    mutating func registerStableHLOOps() {
        let elementwise = OpRegistry.stableHLOElementTypes
        register(.stablehloAdd, types: elementwise) { (c) throws(InterpreterError) in try prepareHLOBinary(&c, .add) }
        register(.stablehloMultiply, types: elementwise) { (c) throws(InterpreterError) in try prepareHLOBinary(&c, .multiply) }
        register(.stablehloMaximum, types: elementwise) { (c) throws(InterpreterError) in try prepareHLOBinary(&c, .maximum) }
        register(.stablehloMinimum, types: elementwise) { (c) throws(InterpreterError) in try prepareHLOBinary(&c, .minimum) }
        register(.stablehloAnd, types: OpRegistry.stableHLOIntegerTypes + [.bool], prepareHLOAnd)
        register(.stablehloShiftLeft, types: [.int8, .int16, .int32], prepareHLOShiftLeft)
    }
}

/// The two operands of an elementwise StableHLO op, which must agree in type and shape
/// (LiteRT does not broadcast them); declares the output shape.
private func sameShapeOperands(_ ctx: PrepareContext) throws(InterpreterError) -> (lhs: Int, rhs: Int, output: Int, type: DataType, count: Int) {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let a = try ctx.input(0), b = try ctx.input(1)
    guard a.type == b.type else { throw ctx.invalid("operand types \(a.type) and \(b.type) differ") }
    guard a.shape == b.shape else { throw ctx.invalid("operand shapes \(a.shape) and \(b.shape) differ (StableHLO does not broadcast)") }
    try ctx.setOutputShape(0, a.shape)
    return (a.index, b.index, try ctx.output(0).index, a.type, a.elementCount)
}

/// Makes a node's kernel for one StableHLO element type, so that the list of the twelve types
/// (`hloKernel(for:_:)`) is written once for every op generic over them.
protocol HLOKernelMaker {
    func make<T: HLOArithmetic>(_: T.Type) -> NodeKernel
}

/// The kernel `maker` makes for the element type `type`, nil for a type no StableHLO op takes.
func hloKernel<M: HLOKernelMaker>(for type: DataType, _ maker: M) -> NodeKernel? {
    switch type {
    case .float16: return maker.make(HalfBits.self)
    case .float32: return maker.make(Float.self)
    case .float64: return maker.make(Double.self)
    case .bool: return maker.make(BoolByte.self)
    case .int8: return maker.make(Int8.self)
    case .int16: return maker.make(Int16.self)
    case .int32: return maker.make(Int32.self)
    case .int64: return maker.make(Int64.self)
    case .uInt8: return maker.make(UInt8.self)
    case .uInt16: return maker.make(UInt16.self)
    case .uInt32: return maker.make(UInt32.self)
    case .uInt64: return maker.make(UInt64.self)
    default: return nil
    }
}

private struct HLOBinaryKernel: HLOKernelMaker {
    let op: HLOBinaryOperator, ai: Int, bi: Int, yi: Int, count: Int

    func make<T: HLOArithmetic>(_: T.Type) -> NodeKernel {
        { c in HLOElementwise.binary(op, lhs: c.data(ai, as: T.self), rhs: c.data(bi, as: T.self), output: c.data(yi, as: T.self), count: count) }
    }
}

private func prepareHLOBinary(_ ctx: inout PrepareContext, _ op: HLOBinaryOperator) throws(InterpreterError) -> NodeKernel {
    let (ai, bi, yi, type, count) = try sameShapeOperands(ctx)
    guard let kernel = hloKernel(for: type, HLOBinaryKernel(op: op, ai: ai, bi: bi, yi: yi, count: count)) else {
        throw ctx.unsupported("operand type \(type)")
    }
    return kernel
}

private func prepareHLOAnd(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    let (ai, bi, yi, type, count) = try sameShapeOperands(ctx)
    func kernel<T: HLOBitwise>(_: T.Type) -> NodeKernel {
        { c in HLOElementwise.and(lhs: c.data(ai, as: T.self), rhs: c.data(bi, as: T.self), output: c.data(yi, as: T.self), count: count) }
    }
    guard type == .bool || OpRegistry.stableHLOIntegerTypes.contains(type) else {
        throw ctx.unsupported("operand type \(type); STABLEHLO_AND takes integers or bool")
    }
    // A bitwise AND does not depend on signedness: an integer is ANDed as the unsigned type of
    // its width.
    switch type.byteSize {
    case 1 where type == .bool: return kernel(BoolByte.self)
    case 1: return kernel(UInt8.self)
    case 2: return kernel(UInt16.self)
    case 4: return kernel(UInt32.self)
    default: return kernel(UInt64.self)
    }
}

private func prepareHLOShiftLeft(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    let (ai, bi, yi, type, count) = try sameShapeOperands(ctx)
    func kernel<T: FixedWidthInteger & SignedInteger>(_: T.Type) -> NodeKernel {
        { c in HLOElementwise.shiftLeft(lhs: c.data(ai, as: T.self), rhs: c.data(bi, as: T.self), output: c.data(yi, as: T.self), count: count) }
    }
    switch type {
    case .int8: return kernel(Int8.self)
    case .int16: return kernel(Int16.self)
    case .int32: return kernel(Int32.self)
    default: throw ctx.unsupported("operand type \(type); STABLEHLO_SHIFT_LEFT takes int8, int16 or int32")
    }
}
