import Kernels

/// SELECT (equal shapes, or a vector condition choosing rows) and SELECT_V2 (broadcasting
/// condition and values) over every fixed-size element type.
extension OpRegistry {
    mutating func registerSelectOps() {
        let all: [DataType] = [.bool, .float32, .int8, .uInt8, .int16, .int32, .int64]
        register(.select, types: all, outputTypes: .sameAs(input: 1)) { (c) throws(InterpreterError) in try prepareSelect(&c, broadcasting: false) }
        register(.selectV2, types: all, outputTypes: .sameAs(input: 1)) { (c) throws(InterpreterError) in try prepareSelect(&c, broadcasting: true) }
    }
}

private func prepareSelect(_ ctx: inout PrepareContext, broadcasting: Bool) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 1...1)
    let cond = try ctx.input(0), a = try ctx.input(1), b = try ctx.input(2), y = try ctx.output(0)
    guard cond.type == .bool else { throw ctx.invalid("condition must be bool, is \(cond.type)") }
    guard a.type == b.type, y.type == a.type, let size = a.type.byteSize else {
        throw ctx.invalid("value types \(a.type), \(b.type) and output \(y.type) must match")
    }
    guard cond.rank <= 6, a.rank <= 6, b.rank <= 6 else { throw ctx.invalid("ranks above 6 are not supported") }
    let plan: Select.Plan?
    if broadcasting {
        plan = Select.Plan(condition: cond.shape, a: a.shape, b: b.shape)
    } else if cond.shape == a.shape && a.shape == b.shape {
        plan = Select.Plan(condition: cond.shape, a: a.shape, b: b.shape)
    } else if cond.rank == 1 && a.shape == b.shape {
        plan = Select.Plan(rowCondition: cond.shape[0], shape: a.shape)
    } else {
        plan = nil
    }
    guard let plan else {
        throw ctx.invalid("condition \(cond.shape) and values \(a.shape), \(b.shape) do not \(broadcasting ? "broadcast" : "match")")
    }
    try ctx.setOutputShape(0, plan.outputShape)
    // Values are moved, never computed on, so one kernel per element size serves all types.
    let kernel = SelectKernel(plan: plan, ci: cond.index, ai: a.index, bi: b.index, yi: y.index)
    guard let run = elementWidthKernel(size: size, kernel) else { throw ctx.unsupported("element type \(a.type)") }
    return run
}

private struct SelectKernel: ElementWidthKernelMaker {
    let plan: Select.Plan, ci: Int, ai: Int, bi: Int, yi: Int

    func make<T: BitwiseCopyable>(_: T.Type) -> NodeKernel {
        { c in Select.run(condition: c.data(ci, as: UInt8.self), a: c.data(ai, as: T.self), b: c.data(bi, as: T.self),
                          plan: plan, output: c.data(yi, as: T.self)) }
    }
}
