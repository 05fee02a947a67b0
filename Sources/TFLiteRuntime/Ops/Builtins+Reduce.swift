import Kernels

/// Reductions over a constant set of axes: MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD,
/// REDUCE_ANY, REDUCE_ALL; and ARG_MAX / ARG_MIN along one axis.
extension OpRegistry {
    mutating func registerReduceOps() {
        let numeric: [DataType] = [.float32, .int32, .int64, .int8, .uInt8, .int16]
        register(.mean, types: numeric) { (c) throws(InterpreterError) in try prepareReduce(&c, .mean) }
        register(.sum, types: numeric) { (c) throws(InterpreterError) in try prepareReduce(&c, .sum) }
        register(.reduceMax, types: numeric) { (c) throws(InterpreterError) in try prepareReduce(&c, .max) }
        register(.reduceMin, types: numeric) { (c) throws(InterpreterError) in try prepareReduce(&c, .min) }
        register(.reduceProd, types: numeric) { (c) throws(InterpreterError) in try prepareReduce(&c, .product) }
        register(.reduceAny, types: [.bool]) { (c) throws(InterpreterError) in try prepareBoolReduce(&c, any: true) }
        register(.reduceAll, types: [.bool]) { (c) throws(InterpreterError) in try prepareBoolReduce(&c, any: false) }
        register(.argMax, types: [.float32, .int32, .int64, .int8, .uInt8], outputTypes: .checkedByOp) { (c) throws(InterpreterError) in try prepareArgMinMax(&c, isMax: true) }
        register(.argMin, types: [.float32, .int32, .int64, .int8, .uInt8], outputTypes: .checkedByOp) { (c) throws(InterpreterError) in try prepareArgMinMax(&c, isMax: false) }
    }
}

/// Reads the axes input, builds the plan and sets the output shape (keeping reduced axes as
/// 1 when keep_dims is set).
private func reducePlan(_ ctx: PrepareContext) throws(InterpreterError) -> ReducePlan {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let x = try ctx.input(0)
    let axes = try ctx.constantIntegers(input: 1)
    guard let plan = ReducePlan(inputShape: x.shape, axes: axes) else {
        throw ctx.invalid("axes \(axes) out of range for shape \(x.shape)")
    }
    var keepDims = false
    if case .reducerOptions(let o)? = ctx.options { keepDims = o.keepDims }
    let shape = keepDims ? x.shape.indices.map { plan.axes.contains($0) ? 1 : x.shape[$0] } : plan.outputShape
    try ctx.setOutputShape(0, shape)
    return plan
}

private func prepareReduce(_ ctx: inout PrepareContext, _ op: ReduceOperator) throws(InterpreterError) -> NodeKernel {
    let plan = try reducePlan(ctx)
    let x = try ctx.input(0), y = try ctx.output(0)
    let xi = x.index, yi = y.index
    switch x.type {
    case .float32:
        if let planned = Reduce.planSumOrMean(op, plan: plan, using: ctx.kernelChoice) {
            ctx.adopt(planned)
            return { c in planned.run(UnaryOperands(input: c.data(xi, as: Float.self), output: c.data(yi, as: Float.self)), c.threads) }
        }
        return { c in Reduce.apply(op, input: c.data(xi, as: Float.self), plan: plan, output: c.data(yi, as: Float.self)) }
    case .int32:
        return { c in Reduce.apply(op, input: c.data(xi, as: Int32.self), plan: plan, output: c.data(yi, as: Int32.self)) }
    case .int64:
        return { c in Reduce.apply(op, input: c.data(xi, as: Int64.self), plan: plan, output: c.data(yi, as: Int64.self)) }
    case .int8, .uInt8, .int16:
        return try prepareQuantizedReduce(&ctx, op, plan: plan)
    case let t:
        throw ctx.unsupported("input type \(t)")
    }
}

private func prepareQuantizedReduce(_ ctx: inout PrepareContext, _ op: ReduceOperator, plan: ReducePlan) throws(InterpreterError) -> NodeKernel {
    let x = try ctx.input(0), y = try ctx.output(0)
    let qx = try ctx.affine(x, role: "input"), qy = try ctx.affine(y, role: "output")
    let shape = x.shape, count = plan.outputCount, xi = x.index, yi = y.index
    let reduced = x.shape.indices.map { plan.axes.contains($0) }
    // MEAN and SUM accumulate in int32, REDUCE_PROD in int64, one per output, in the scratch.
    ctx.requestScratch(bytes: count * MemoryLayout<Int64>.stride)
    func kernel<T: QuantizedElement>(_: T.Type) throws(InterpreterError) -> NodeKernel {
        switch op {
        case .mean:
            let params = QuantizedMeanSumParams(input: qx, output: qy)
            if T.self == Int8.self,
               let planned = Reduce.Quantized.planMean(params, inputShape: shape, reduced: reduced, using: ctx.kernelChoice) {
                ctx.adopt(planned)
                return { c in planned.run(UnaryOperands(input: c.data(xi, as: Int8.self), output: c.data(yi, as: Int8.self)), c.threads) }
            }
            return { c in Reduce.Quantized.meanOrSum(params, computeSum: false, input: c.data(xi, as: T.self), inputShape: shape, reduced: reduced, output: c.data(yi, as: T.self), outputCount: count, sums: c.scratch.assumingMemoryBound(to: Int32.self)) }
        case .sum:
            // LiteRT's SUM for 8-bit types rescales the integer sum in float (its optimised
            // kernel, which the corpus golden follows); int16 uses the integer path.
            let params = QuantizedMeanSumParams(input: qx, output: qy)
            if T.self == Int16.self {
                return { c in Reduce.Quantized.meanOrSum(params, computeSum: true, input: c.data(xi, as: T.self), inputShape: shape, reduced: reduced, output: c.data(yi, as: T.self), outputCount: count, sums: c.scratch.assumingMemoryBound(to: Int32.self)) }
            }
            return { c in Reduce.Quantized.sumFloatRescale(params, input: c.data(xi, as: T.self), inputShape: shape, reduced: reduced, output: c.data(yi, as: T.self), outputCount: count, sums: c.scratch.assumingMemoryBound(to: Int32.self)) }
        case .max:
            guard qx == qy else { throw ctx.invalid("REDUCE_MAX needs equal input and output quantization") }
            return { c in Reduce.Quantized.maximumMinimum(largest: true, input: c.data(xi, as: T.self), inputShape: shape, reduced: reduced, output: c.data(yi, as: T.self), outputCount: count) }
        case .min:
            guard qx == qy else { throw ctx.invalid("REDUCE_MIN needs equal input and output quantization") }
            return { c in Reduce.Quantized.maximumMinimum(largest: false, input: c.data(xi, as: T.self), inputShape: shape, reduced: reduced, output: c.data(yi, as: T.self), outputCount: count) }
        case .product:
            throw ctx.unsupported("REDUCE_PROD on \(x.type)")
        }
    }
    switch x.type {
    case .int8:
        if op == .product {
            let params = QuantizedReduceProdParams(input: qx, output: qy, count: plan.reducedCount)
            return { c in Reduce.Quantized.product(params, input: c.data(xi, as: Int8.self), inputShape: shape, reduced: reduced, output: c.data(yi, as: Int8.self), outputCount: count, products: c.scratch.assumingMemoryBound(to: Int64.self)) }
        }
        return try kernel(Int8.self)
    case .uInt8: return try kernel(UInt8.self)
    default: return try kernel(Int16.self)
    }
}

private func prepareBoolReduce(_ ctx: inout PrepareContext, any: Bool) throws(InterpreterError) -> NodeKernel {
    let plan = try reducePlan(ctx)
    try ctx.requireType(input: 0, .bool)
    let xi = try ctx.input(0).index, yi = try ctx.output(0).index
    if any { return { c in Reduce.any(input: c.data(xi, as: UInt8.self), plan: plan, output: c.data(yi, as: UInt8.self)) } }
    return { c in Reduce.all(input: c.data(xi, as: UInt8.self), plan: plan, output: c.data(yi, as: UInt8.self)) }
}

private func prepareArgMinMax(_ ctx: inout PrepareContext, isMax: Bool) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    let axisValues = try ctx.constantIntegers(input: 1)
    guard axisValues.count == 1 else { throw ctx.invalid("axis must be one value") }
    let axis = axisValues[0] < 0 ? axisValues[0] + x.rank : axisValues[0]
    guard axis >= 0, axis < x.rank else { throw ctx.invalid("axis \(axisValues[0]) out of range for rank \(x.rank)") }
    var shape = x.shape
    shape.remove(at: axis)
    try ctx.setOutputShape(0, shape)
    let outer = x.shape[..<axis].reduce(1, *), size = x.shape[axis], inner = x.shape[(axis + 1)...].reduce(1, *)
    guard y.type == .int32 || y.type == .int64 else { throw ctx.invalid("output type must be int32 or int64, is \(y.type)") }
    let kernel = ArgMinMaxKernel(isMax: isMax, outer: outer, size: size, inner: inner, xi: x.index, yi: y.index)
    guard let run = valueIndexKernel(kernel, value: x.type, wideIndex: y.type == .int64) else { throw ctx.unsupported("input type \(x.type)") }
    return run
}

private struct ArgMinMaxKernel: ValueIndexKernelMaker {
    let isMax: Bool, outer: Int, size: Int, inner: Int, xi: Int, yi: Int

    func make<T: WrappingAddable & Comparable, I: FixedWidthInteger>(_: T.Type, _: I.Type) -> NodeKernel {
        if isMax {
            return { c in ArgMinMax.argMax(input: c.data(xi, as: T.self), outer: outer, axisSize: size, inner: inner, output: c.data(yi, as: I.self)) }
        }
        return { c in ArgMinMax.argMin(input: c.data(xi, as: T.self), outer: outer, axisSize: size, inner: inner, output: c.data(yi, as: I.self)) }
    }
}
