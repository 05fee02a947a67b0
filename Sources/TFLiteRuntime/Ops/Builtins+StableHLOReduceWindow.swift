import Kernels

/// STABLEHLO_REDUCE_WINDOW (base dilation, padding, window dilation, a body subgraph naming the
/// reduction) and the TFLite REDUCE_WINDOW (window, strides and dilations as constant int64
/// inputs, the reduction an enum), both on `ReduceWindowPlan`.
extension OpRegistry {
    mutating func registerStableHLOReduceWindowOps() {
        let windowed: [DataType] = [.float32, .float64, .int8, .int16, .int32, .int64, .uInt8, .bool]
        register(.stablehloReduceWindow, types: windowed, prepareHLOReduceWindow)
        register(.reduceWindow, types: windowed, prepareReduceWindow)
    }
}

/// The kernel's view of a tensor type; bool reduces as int8, as in LiteRT.
private func windowElement(_ ctx: PrepareContext, _ type: DataType) throws(InterpreterError) -> WindowElement {
    switch type {
    case .int8, .bool: return .int8
    case .int16: return .int16
    case .int32: return .int32
    case .int64: return .int64
    case .uInt8: return .uInt8
    case .float32: return .float32
    case .float64: return .float64
    default: throw ctx.unsupported("input type \(type)")
    }
}

/// The operand, its rank checked, and the index of the one-element initial value (input 1).
private func operandAndInitial(_ ctx: PrepareContext) throws(InterpreterError) -> (TensorInfo, Int) {
    let x = try ctx.input(0), initial = try ctx.input(1)
    guard (1...6).contains(x.rank) else { throw ctx.unsupported("input rank \(x.rank); LiteRT reduces windows over ranks 1 to 6") }
    guard initial.type == x.type, initial.elementCount == 1 else {
        throw ctx.invalid("initial value must be one \(x.type) element, is \(initial.type) \(initial.shape)")
    }
    return (x, initial.index)
}

/// Window sizes, strides or dilations: one per axis, each in `1...Int32.max` (so a dilated
/// window's extent cannot overflow).
private func positiveAmounts(_ ctx: PrepareContext, _ values: [Int64], rank: Int, what: String) throws(InterpreterError) -> [Int] {
    guard values.count == rank else { throw ctx.invalid("\(what) has \(values.count) entries for rank \(rank)") }
    guard values.allSatisfy({ $0 >= 1 && $0 <= Int64(Int32.max) }) else {
        throw ctx.invalid("\(what) \(values) must lie in 1...\(Int32.max)")
    }
    return values.map { Int($0) }
}

private func prepareHLOReduceWindow(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    guard case .stablehloReduceWindowOptions(let o)? = ctx.options2 else { throw ctx.invalid("missing StablehloReduceWindowOptions") }
    let (x, ii) = try operandAndInitial(ctx)
    let rank = x.rank
    // Omitted attributes take StableHLO's defaults.
    func amounts(_ v: [Int64], _ what: String) throws(InterpreterError) -> [Int] {
        try positiveAmounts(ctx, v.isEmpty ? [Int64](repeating: 1, count: rank) : v, rank: rank, what: what)
    }
    let window = try positiveAmounts(ctx, o.windowDimensions, rank: rank, what: "window_dimensions")
    let strides = try amounts(o.windowStrides, "window_strides")
    let baseDilations = try amounts(o.baseDilations, "base_dilations")
    let windowDilations = try amounts(o.windowDilations, "window_dilations")
    let padding = o.padding.isEmpty ? [Int64](repeating: 0, count: 2 * rank) : o.padding
    guard padding.count == 2 * rank, padding.allSatisfy({ (-Int64(Int32.max)...Int64(Int32.max)).contains($0) }) else {
        throw ctx.invalid("padding \(o.padding) must hold a low and high amount within ±\(Int32.max) per axis")
    }
    let reduction = try hloReduction(ctx, o.bodySubgraphIndex, type: x.type)
    let element = try windowElement(ctx, x.type)
    let size = try ctx.elementSize(x, role: "input")

    // Dilating the base and padding it, both with the initial value, is one StableHLO pad.
    let pads = (0..<rank).map { EdgeInteriorPad(low: Int(padding[2 * $0]), high: Int(padding[2 * $0 + 1]), interior: baseDilations[$0] - 1) }
    let padded = try paddedShape(ctx, x.shape, pads)
    let needsPad = pads.contains { $0 != EdgeInteriorPad(low: 0, high: 0, interior: 0) }
    var copy: IndexMapCopy?
    if needsPad {
        // The padded tensor lives in scratch; its size and its copy's tables are bounded by
        // the memory limit before anything is built.
        let limit = ctx.executor.memoryLimit
        let elements = checkedProduct(padded) ?? Int.max
        let bytes = elements > limit / size ? Int.max : elements * size
        guard bytes <= limit, padded.allSatisfy({ $0 <= limit / 8 }) else { throw .memoryLimitExceeded(requested: bytes, limit: limit) }
        ctx.requestScratch(bytes: bytes)
        copy = Pad.planEdgeInterior(inputShape: x.shape, padding: pads, elementSize: size)
    }
    let plan = ReduceWindowPlan(inputShape: padded, window: window, strides: strides, dilations: windowDilations)
    try ctx.setOutputShape(0, plan.outputShape)
    let xi = x.index, yi = try ctx.output(0).index, padCopy = copy
    return { c in
        var input = UnsafeRawPointer(c.raw(xi))
        if let padCopy {
            padCopy.run(input: input, output: c.scratch, padValue: UnsafeRawPointer(c.raw(ii)))
            input = UnsafeRawPointer(c.scratch)
        }
        plan.run(reduction, element: element, input: input, initial: c.raw(ii), output: c.raw(yi))
    }
}

/// The reduction a STABLEHLO_REDUCE_WINDOW body performs: the bodies LiteRT's kernel
/// recognises, a single ADD, MUL, MAXIMUM, MINIMUM, LOGICAL_AND or LOGICAL_OR (TFLite's or
/// StableHLO's).
private func hloReduction(_ ctx: PrepareContext, _ body: Int32, type: DataType) throws(InterpreterError) -> WindowReduction {
    let region = try ctx.regionBody(body, role: "reduction body", type: type)
    guard case .single(let op) = region else {
        throw ctx.unsupported("reduction body subgraph \(body) has no operator; LiteRT's kernel needs one arithmetic operator")
    }
    switch op {
    case .add, .stablehloAdd: return .add
    case .mul, .stablehloMultiply: return .multiply
    case .maximum, .stablehloMaximum: return .maximum
    case .minimum, .stablehloMinimum: return .minimum
    case .logicalAnd, .stablehloAnd: return .all
    case .logicalOr, .stablehloOr: return .any
    default:
        throw ctx.unsupported("reduction body subgraph \(body) runs \(op.name); supported: ADD, MUL, MAXIMUM, MINIMUM, LOGICAL_AND, LOGICAL_OR and their StableHLO forms")
    }
}

private func prepareReduceWindow(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 5...5, outputs: 1...1)
    guard case .reduceWindowOptions(let o)? = ctx.options2 else { throw ctx.invalid("missing ReduceWindowOptions") }
    let (x, ii) = try operandAndInitial(ctx)
    func constant(_ i: Int, _ what: String) throws(InterpreterError) -> [Int] {
        let t = try ctx.input(i)
        guard t.type == .int64, let values = t.constantValues(as: Int64.self) else {
            throw ctx.invalid("\(what) (input \(i)) must be a constant int64 tensor, is \(t.type)\(t.isConstant ? "" : " computed at run time")")
        }
        return try positiveAmounts(ctx, values, rank: x.rank, what: what)
    }
    let window = try constant(2, "window shape"), strides = try constant(3, "window strides"), dilations = try constant(4, "window dilations")
    let reduction: WindowReduction
    switch o.reduceFunction {
    case .add: reduction = .add
    case .mul: reduction = .multiply
    case .minimum: reduction = .minimum
    case .maximum: reduction = .maximum
    case .all: reduction = .all
    case .any: reduction = .any
    case .unsupported: throw ctx.unsupported("reduce_function UNSUPPORTED")
    }
    let element = try windowElement(ctx, x.type)
    let plan = ReduceWindowPlan(inputShape: x.shape, window: window, strides: strides, dilations: dilations)
    try ctx.setOutputShape(0, plan.outputShape)
    let xi = x.index, yi = try ctx.output(0).index
    return { c in plan.run(reduction, element: element, input: c.raw(xi), initial: c.raw(ii), output: c.raw(yi)) }
}
