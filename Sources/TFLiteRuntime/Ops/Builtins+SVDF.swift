import Kernels

/// SVDF on int8 activations (the keyword-spotting models'), prepared as LiteRT's: inputs 0
/// input `[batch, features]`, 1 feature weights `[filters, features]` (int8), 2 time weights
/// `[filters, memory]`, 3 bias `[units]` (int32, optional), 4 the memory `[batch, filters *
/// memory]` (a variable of the time weights' type: int16, or int8 as TFLite Micro allows).
/// Float and hybrid SVDF are not supported.
extension OpRegistry {
    mutating func registerSVDFOps() {
        // Hybrid and 16x8 kernels write float or int16 outputs from other inputs.
        register(.svdf, types: [.int8], outputTypes: .checkedByOp, foldable: false, prepareSVDF)
    }
}

private func prepareSVDF(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 5...5, outputs: 1...1)
    let x = try ctx.input(0), featureWeights = try ctx.input(1), timeWeights = try ctx.input(2), state = try ctx.input(4)
    let y = try ctx.output(0)
    guard x.type == .int8, featureWeights.type == .int8, timeWeights.type == state.type,
          state.type == .int16 || state.type == .int8, y.type == .int8 else {
        throw ctx.unsupported("types input \(x.type), weights \(featureWeights.type) and \(timeWeights.type), state \(state.type), output \(y.type); only the int8 SVDF with int16 (or int8) time weights and state")
    }
    guard case .sVDFOptions(let options)? = ctx.options else { throw ctx.invalid("SVDF options are missing") }
    // LiteRT's integer kernel accepts only RELU, and (like it) leaves the clamp to the int8 range.
    guard options.fusedActivationFunction == .relu else {
        throw ctx.unsupported("integer SVDF with activation \(options.fusedActivationFunction); LiteRT's integer kernel takes only RELU")
    }
    guard x.rank == 2, featureWeights.rank == 2, timeWeights.rank == 2, state.rank == 2 else {
        throw ctx.invalid("input, weights and state must be matrices, have shapes \(x.shape), \(featureWeights.shape), \(timeWeights.shape), \(state.shape)")
    }
    let batch = x.shape[0], inputSize = x.shape[1], filters = featureWeights.shape[0], memory = timeWeights.shape[1]
    let rank = Int(options.rank)
    guard rank > 0, filters % rank == 0 else { throw ctx.invalid("rank \(rank) must be positive and divide the \(filters) filters") }
    guard featureWeights.shape[1] == inputSize, timeWeights.shape[0] == filters else {
        throw ctx.invalid("weights \(featureWeights.shape) and \(timeWeights.shape) do not match the input \(x.shape)")
    }
    let (stateCount, overflow) = filters.multipliedReportingOverflow(by: memory)
    guard !overflow, state.shape == [batch, stateCount] else {
        throw ctx.invalid("state has shape \(state.shape), expected \([batch, filters &* memory])")
    }
    guard !state.isConstant else { throw ctx.invalid("the state (input 4) must be a variable, not a constant") }
    let bias = ctx.optionalInput(3)
    if let bias, bias.type != .int32 || bias.shape != [filters / rank] {
        throw ctx.invalid("bias must be int32 \([filters / rank]), is \(bias.type) \(bias.shape)")
    }
    let inputQ = try ctx.affine(x, role: "input"), outputQ = try ctx.affine(y, role: "output")
    let stateQ = try ctx.affine(state, role: "state")
    let featureScale = try ctx.weightScales(featureWeights, channels: 1, axis: 0).scales[0]
    let timeScale = try ctx.weightScales(timeWeights, channels: 1, axis: 0).scales[0]
    let config = SVDFInteger.Configuration(
        batch: batch, inputSize: inputSize, filters: filters, rank: rank, memory: memory,
        featureMultiplier: QuantizedMultiplier(Double(inputQ.scale * featureScale / stateQ.scale)),
        outputMultiplier: QuantizedMultiplier(Double(stateQ.scale * timeScale / outputQ.scale)),
        inputZeroPoint: inputQ.zeroPoint, outputZeroPoint: outputQ.zeroPoint,
        stateZeroPoint: state.type == .int8 ? stateQ.zeroPoint : 0)
    try ctx.setOutputShape(0, [batch, filters / rank])
    ctx.requestScratch(bytes: config.scratchCount * MemoryLayout<Int32>.stride)
    let xi = x.index, fi = featureWeights.index, ti = timeWeights.index, bi = bias?.index, si = state.index, yi = y.index
    func kernel<State: FixedWidthInteger & SignedInteger>(_: State.Type) -> NodeKernel {
        { c in
            SVDFInteger.run(config, input: c.data(xi, as: Int8.self), featureWeights: c.data(fi, as: Int8.self),
                            timeWeights: UnsafePointer(c.data(ti, as: State.self)),
                            bias: bi.map { UnsafePointer(c.data($0, as: Int32.self)) },
                            state: c.data(si, as: State.self), output: c.data(yi, as: Int8.self),
                            scratch: c.scratch.assumingMemoryBound(to: Int32.self))
        }
    }
    return state.type == .int8 ? kernel(Int8.self) : kernel(Int16.self)
}
