import Kernels

/// PAD, PADV2 and MIRROR_PAD, with the paddings a constant [rank, 2] tensor.
extension OpRegistry {
    mutating func registerPadOps() {
        let all = OpRegistry.elementMovingTypes
        register(.pad, types: all, preparePad)
        register(.padv2, types: all, preparePad)
        register(.mirrorPad, types: all, prepareMirrorPad)
    }
}

/// The paddings of input 1, checked against the input's rank; declares the padded output shape.
private func paddings(_ ctx: PrepareContext, _ x: TensorInfo) throws(InterpreterError) -> [PadAmount] {
    let pads = try ctx.constantPairs(input: 1, rows: x.rank, what: "paddings")
    let shape = Pad.outputShape(inputShape: x.shape, paddings: pads)
    try ctx.setOutputShape(0, checking: shape, "padded shape \(shape) overflows")
    return pads
}

/// PAD and PADV2: PAD fills with zero (the zero point of a quantised output), PADV2 with its
/// scalar input 2.
private func preparePad(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...3, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    let pads = try paddings(ctx, x)
    let size = try ctx.elementSize(x, role: "input")
    let copy = Pad.planConstant(inputShape: x.shape, paddings: pads, elementSize: size)
    let xi = x.index, yi = y.index
    var fill = [UInt8](repeating: 0, count: size)
    if let value = ctx.optionalInput(2) {
        guard value.type == x.type, value.elementCount == 1 else {
            throw ctx.invalid("pad value must be one \(x.type) element, is \(value.type) \(value.shape)")
        }
        if let data = value.constantData {
            fill = (0..<size).map { data.load(fromByteOffset: $0, as: UInt8.self) }
        } else {
            // A pad value computed at run time is read at each invocation.
            let vi = value.index
            return { c in copy.run(input: c.raw(xi), output: c.raw(yi), padValue: UnsafeRawPointer(c.raw(vi)),
                                        threads: c.threads) }
        }
    } else if x.type == .int8 || x.type == .uInt8 || x.type == .int16 {
        // Real zero in the output's quantisation.
        let zp = try ctx.affine(y, role: "output").zeroPoint
        let (lo, hi) = try ctx.storageRange(x.type)
        guard zp >= lo, zp <= hi else { throw ctx.invalid("output zero point \(zp) outside the \(x.type) range") }
        withUnsafeBytes(of: zp.littleEndian) { fill = Array($0.prefix(size)) }
    }
    let padValue = fill
    return { c in padValue.withUnsafeBytes { copy.run(input: c.raw(xi), output: c.raw(yi), padValue: $0.baseAddress,
                                                                  threads: c.threads) } }
}

private func prepareMirrorPad(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    guard case .mirrorPadOptions(let o)? = ctx.options else { throw ctx.invalid("missing MirrorPadOptions") }
    let x = try ctx.input(0)
    let pads = try paddings(ctx, x)
    // REFLECT does not repeat the edge, so it can reach at most extent - 1 elements out.
    let slack = o.mode == .reflect ? 1 : 0
    for (d, p) in pads.enumerated() where max(p.before, p.after) > max(x.shape[d] - slack, 0) {
        throw ctx.invalid("\(o.mode) padding [\(p.before), \(p.after)] too large for axis \(d) of extent \(x.shape[d])")
    }
    let mode: MirrorPadMode = o.mode == .reflect ? .reflect : .symmetric
    return try ctx.indexMapCopyKernel { Pad.planMirror(inputShape: x.shape, paddings: pads, mode: mode, elementSize: $0) }
}
