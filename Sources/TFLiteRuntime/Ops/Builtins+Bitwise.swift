import Kernels

/// BITWISE_XOR and RIGHT_SHIFT over 8/16/32-bit signed and unsigned integers, broadcasting.
extension OpRegistry {
    mutating func registerBitwiseOps() {
        let types: [DataType] = [.int8, .uInt8, .int16, .uInt16, .int32, .uInt32]
        register(.bitwiseXor, types: types) { (c) throws(InterpreterError) in try prepareBitwise(&c, shift: false) }
        register(.rightShift, types: types) { (c) throws(InterpreterError) in try prepareBitwise(&c, shift: true) }
    }
}

private func prepareBitwise(_ ctx: inout PrepareContext, shift: Bool) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let a = try ctx.input(0), b = try ctx.input(1), y = try ctx.output(0)
    guard a.type == b.type, y.type == a.type else { throw ctx.invalid("input types \(a.type), \(b.type) and output \(y.type) differ") }
    guard a.rank <= 6, b.rank <= 6, let plan = BroadcastPlan(lhsShape: a.shape, rhsShape: b.shape) else {
        throw ctx.invalid("shapes \(a.shape) and \(b.shape) do not broadcast (rank at most 6)")
    }
    try ctx.setOutputShape(0, plan.outputShape)
    let ai = a.index, bi = b.index, yi = y.index
    func kernel<T: FixedWidthInteger>(_: T.Type) -> NodeKernel {
        if shift {
            return { c in Bitwise.rightShift(lhs: c.data(ai, as: T.self), rhs: c.data(bi, as: T.self), plan: plan, output: c.data(yi, as: T.self)) }
        }
        return { c in Bitwise.xor(lhs: c.data(ai, as: T.self), rhs: c.data(bi, as: T.self), plan: plan, output: c.data(yi, as: T.self)) }
    }
    switch a.type {
    case .int8: return kernel(Int8.self)
    case .uInt8: return kernel(UInt8.self)
    case .int16: return kernel(Int16.self)
    case .uInt16: return kernel(UInt16.self)
    case .int32: return kernel(Int32.self)
    case .uInt32: return kernel(UInt32.self)
    case let t: throw ctx.unsupported("input type \(t)")
    }
}
