import Kernels

/// Comparisons with broadcasting (EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL)
/// writing bool tensors, and LOGICAL_AND / LOGICAL_OR / LOGICAL_NOT.
extension OpRegistry {
    mutating func registerComparisonOps() {
        let types: [DataType] = [.float32, .bFloat16, .int32, .int64, .uInt8, .bool]
        for (op, cmp) in [(Schema.BuiltinOperator.equal, ComparisonOperator.equal), (.notEqual, .notEqual), (.less, .less),
                          (.lessEqual, .lessEqual), (.greater, .greater), (.greaterEqual, .greaterEqual)] {
            register(op, types: types, outputTypes: .bool) { (c) throws(InterpreterError) in try prepareComparison(&c, cmp) }
        }
        register(.logicalAnd, types: [.bool]) { (c) throws(InterpreterError) in try prepareLogical(&c, .and) }
        register(.logicalOr, types: [.bool]) { (c) throws(InterpreterError) in try prepareLogical(&c, .or) }
        register(.logicalNot, types: [.bool], prepareLogicalNot)
    }
}

private func prepareComparison(_ ctx: inout PrepareContext, _ op: ComparisonOperator) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let a = try ctx.input(0), b = try ctx.input(1), y = try ctx.output(0)
    guard a.type == b.type else { throw ctx.invalid("input types \(a.type) and \(b.type) differ") }
    guard y.type == .bool else { throw ctx.invalid("output must be bool, is \(y.type)") }
    guard a.rank <= 6, b.rank <= 6, let plan = BroadcastPlan(lhsShape: a.shape, rhsShape: b.shape) else {
        throw ctx.invalid("shapes \(a.shape) and \(b.shape) do not broadcast")
    }
    try ctx.setOutputShape(0, plan.outputShape)
    let ai = a.index, bi = b.index, yi = y.index
    switch a.type {
    case .float32:
        return { c in Elementwise.compare(op, lhs: c.data(ai, as: Float.self), rhs: c.data(bi, as: Float.self), plan: plan, output: c.data(yi, as: UInt8.self)) }
    case .bFloat16:
        return { c in Elementwise.compareBFloat16(op, lhs: c.data(ai, as: UInt16.self), rhs: c.data(bi, as: UInt16.self), plan: plan,
                                                  output: c.data(yi, as: UInt8.self)) }
    case .int32:
        return { c in Elementwise.compare(op, lhs: c.data(ai, as: Int32.self), rhs: c.data(bi, as: Int32.self), plan: plan, output: c.data(yi, as: UInt8.self)) }
    case .int64:
        return { c in Elementwise.compare(op, lhs: c.data(ai, as: Int64.self), rhs: c.data(bi, as: Int64.self), plan: plan, output: c.data(yi, as: UInt8.self)) }
    case .uInt8, .bool:
        if a.type == .uInt8, a.quantization != b.quantization {
            throw ctx.unsupported("comparing uint8 tensors with different quantization")
        }
        return { c in Elementwise.compare(op, lhs: c.data(ai, as: UInt8.self), rhs: c.data(bi, as: UInt8.self), plan: plan, output: c.data(yi, as: UInt8.self)) }
    case let t:
        throw ctx.unsupported("input type \(t)")
    }
}

private func prepareLogical(_ ctx: inout PrepareContext, _ op: LogicalOperator) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    try ctx.requireSameType(.bool, inputs: [0, 1])
    let a = try ctx.input(0), b = try ctx.input(1), y = try ctx.output(0)
    guard let plan = BroadcastPlan(lhsShape: a.shape, rhsShape: b.shape) else {
        throw ctx.invalid("shapes \(a.shape) and \(b.shape) do not broadcast")
    }
    try ctx.setOutputShape(0, plan.outputShape)
    let ai = a.index, bi = b.index, yi = y.index
    return { c in Elementwise.logical(op, lhs: c.data(ai, as: UInt8.self), rhs: c.data(bi, as: UInt8.self), plan: plan, output: c.data(yi, as: UInt8.self)) }
}

private func prepareLogicalNot(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    try ctx.requireSameType(.bool, inputs: [0])
    let x = try ctx.input(0)
    try ctx.setOutputShape(0, x.shape)
    let xi = x.index, yi = try ctx.output(0).index, count = x.elementCount
    return { c in Elementwise.logicalNot(input: c.data(xi, as: UInt8.self), output: c.data(yi, as: UInt8.self), count: count) }
}
