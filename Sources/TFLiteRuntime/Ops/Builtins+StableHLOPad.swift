import Kernels

/// STABLEHLO_PAD (edge and interior padding, negative edges crop) and DILATE (interior padding
/// only), both one `Pad.planEdgeInterior` copy filled with a padding-value operand.
extension OpRegistry {
    mutating func registerStableHLOPadOps() {
        register(.stablehloPad, types: OpRegistry.stableHLOElementTypes, prepareHLOPad)
        register(.dilate, types: OpRegistry.stableHLOElementTypes, prepareDilate)
    }
}

/// The padded shape, with every step checked for overflow. A negative extent (crops larger
/// than the padded axis) is an error; LiteRT instead gives an all-zero shape whenever any
/// extent is zero or negative, where this keeps the other extents as StableHLO specifies.
func paddedShape(_ ctx: PrepareContext, _ shape: [Int], _ padding: [EdgeInteriorPad]) throws(InterpreterError) -> [Int] {
    var out: [Int] = []
    for (d, (n, p)) in zip(shape, padding).enumerated() {
        let gaps = max(n - 1, 0).multipliedReportingOverflow(by: p.interior)
        let grown = n.addingReportingOverflow(gaps.partialValue)
        let low = grown.partialValue.addingReportingOverflow(p.low)
        let high = low.partialValue.addingReportingOverflow(p.high)
        guard !gaps.overflow, !grown.overflow, !low.overflow, !high.overflow else {
            throw ctx.invalid("padding low \(p.low), high \(p.high), interior \(p.interior) of axis \(d) (extent \(n)) overflows")
        }
        guard high.partialValue >= 0 else {
            throw ctx.invalid("padding low \(p.low), high \(p.high), interior \(p.interior) crops axis \(d) (extent \(n)) below zero")
        }
        out.append(high.partialValue)
    }
    guard checkedProduct(out) != nil else { throw ctx.invalid("padded shape \(out) overflows") }
    return out
}

/// The padding value: input `i`, one element of the operand's type.
private func paddingValue(_ ctx: PrepareContext, input i: Int, type: DataType) throws(InterpreterError) -> Int {
    let v = try ctx.input(i)
    guard v.type == type, v.elementCount == 1 else {
        throw ctx.invalid("padding value must be one \(type) element, is \(v.type) \(v.shape)")
    }
    return v.index
}

private func prepareHLOPad(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    guard case .stablehloPadOptions(let o)? = ctx.options2 else { throw ctx.invalid("missing StablehloPadOptions") }
    let x = try ctx.input(0)
    guard (1...8).contains(x.rank) else { throw ctx.unsupported("operand rank \(x.rank); LiteRT pads ranks 1 to 8") }
    for (name, list) in [("edge_padding_low", o.edgePaddingLow), ("edge_padding_high", o.edgePaddingHigh), ("interior_padding", o.interiorPadding)]
    where list.count != x.rank {
        throw ctx.invalid("\(name) has \(list.count) entries for an operand of rank \(x.rank)")
    }
    var padding: [EdgeInteriorPad] = []
    for d in 0..<x.rank {
        // Amounts beyond ±2^31 pad past any tensor that fits in memory.
        let amounts = [o.edgePaddingLow[d], o.edgePaddingHigh[d], o.interiorPadding[d]]
        guard amounts.allSatisfy({ (-Int64(Int32.max)...Int64(Int32.max)).contains($0) }), o.interiorPadding[d] >= 0 else {
            throw ctx.invalid("padding \(amounts) of axis \(d) must lie within ±\(Int32.max), interior non-negative")
        }
        padding.append(EdgeInteriorPad(low: Int(o.edgePaddingLow[d]), high: Int(o.edgePaddingHigh[d]), interior: Int(o.interiorPadding[d])))
    }
    let size = try ctx.elementSize(x, role: "operand")
    let vi = try paddingValue(ctx, input: 1, type: x.type)
    try ctx.setOutputShape(0, try paddedShape(ctx, x.shape, padding))
    let copy = Pad.planEdgeInterior(inputShape: x.shape, padding: padding, elementSize: size)
    let xi = x.index, yi = try ctx.output(0).index
    return { c in copy.run(input: c.raw(xi), output: c.raw(yi), padValue: UnsafeRawPointer(c.raw(vi)), threads: c.threads) }
}

/// DILATE: `dilations[d] - 1` padding values between neighbours along each axis. Dilations
/// computed at run time make the output dynamic, planned at each invocation.
private func prepareDilate(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 1...1)
    let x = try ctx.input(0), dilations = try ctx.input(1)
    guard x.rank >= 1 else { throw ctx.invalid("input must have rank at least 1") }
    guard dilations.type == .int32, dilations.shape == [x.rank] else {
        throw ctx.invalid("dilations must be int32 of shape [\(x.rank)], are \(dilations.type) \(dilations.shape)")
    }
    let size = try ctx.elementSize(x, role: "input")
    let vi = try paddingValue(ctx, input: 2, type: x.type)
    let xi = x.index, yi = try ctx.output(0).index, di = dilations.index, shape = x.shape
    let context = ctx
    func padding(_ factors: [Int32]) throws(InterpreterError) -> [EdgeInteriorPad] {
        var padding: [EdgeInteriorPad] = []
        for (d, f) in factors.enumerated() {
            guard f >= 1 else { throw context.invalid("dilation \(f) of axis \(d) must be at least 1") }
            padding.append(EdgeInteriorPad(low: 0, high: 0, interior: Int(f) - 1))
        }
        return padding
    }
    // The copy's tables are as long as the output's axes, so the output is sized (against the
    // memory limit) before they are built.
    if let factors = dilations.constantValues(as: Int32.self) {
        let p = try padding(factors)
        try ctx.setOutputShape(0, try paddedShape(ctx, shape, p))
        let copy = Pad.planEdgeInterior(inputShape: shape, padding: p, elementSize: size)
        return { c in copy.run(input: c.raw(xi), output: c.raw(yi), padValue: UnsafeRawPointer(c.raw(vi)), threads: c.threads) }
    }
    try ctx.setOutputDynamic(0)
    return { (c) throws(InterpreterError) in
        let factors = Array(UnsafeBufferPointer(start: c.data(di, as: Int32.self), count: shape.count))
        let p = try padding(factors)
        let output = try c.resize(yi, to: try paddedShape(context, shape, p))
        Pad.planEdgeInterior(inputShape: shape, padding: p, elementSize: size)
            .run(input: c.raw(xi), output: output, padValue: UnsafeRawPointer(c.raw(vi)), threads: c.threads)
    }
}
