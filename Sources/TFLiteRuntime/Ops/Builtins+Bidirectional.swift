import Kernels

/// BIDIRECTIONAL_SEQUENCE_LSTM and BIDIRECTIONAL_SEQUENCE_RNN in float32: a forward layer over
/// the sequence and a backward one from its end, each with its own weights and state, writing
/// two outputs or (merge_outputs) one whose rows hold the forward then the backward features.
/// The auxiliary input (stacked bidirectional layers) is not supported.
extension OpRegistry {
    mutating func registerBidirectionalOps() {
        // Hybrid and 16x8 kernels write float or int16 outputs from other inputs.
        register(.bidirectionalSequenceLstm, types: [.float32], outputTypes: .checkedByOp, foldable: false, prepareBidirectionalLSTM)
        register(.bidirectionalSequenceRnn, types: [.float32], outputTypes: .checkedByOp, foldable: false, prepareBidirectionalRNN)
    }
}

/// The sizes of a `[batch, time, features]` (or time-major) sequence input, which must come
/// without the auxiliary input (inputs `auxiliary` and on).
private func sequenceSizes(_ ctx: PrepareContext, timeMajor: Bool, auxiliary: Int) throws(InterpreterError) -> (batch: Int, time: Int, features: Int) {
    for i in auxiliary..<ctx.inputCount where ctx.optionalInput(i) != nil {
        throw ctx.unsupported("the auxiliary input (input \(i) is present)")
    }
    let x = try ctx.input(0)
    guard x.type == .float32 else { throw ctx.unsupported("input type \(x.type); only float32") }
    guard x.rank == 3 else { throw ctx.invalid("input must be [batch, time, features] (or time-major), has shape \(x.shape)") }
    return timeMajor ? (x.shape[1], x.shape[0], x.shape[2]) : (x.shape[0], x.shape[1], x.shape[2])
}

/// Declares the outputs: `[batch, time, forward]` and `[batch, time, backward]` (or time-major),
/// or one `[batch, time, forward + backward]`.
private func declareBidirectionalOutputs(_ ctx: inout PrepareContext, merge: Bool, timeMajor: Bool, batch: Int, time: Int,
                                         forward: Int, backward: Int) throws(InterpreterError) {
    func shape(_ features: Int) -> [Int] { timeMajor ? [time, batch, features] : [batch, time, features] }
    guard ctx.outputCount == (merge ? 1 : 2) else {
        throw ctx.invalid("has \(ctx.outputCount) outputs; \(merge ? "merged outputs need 1" : "separate outputs need 2")")
    }
    for k in 0..<ctx.outputCount where try ctx.output(k).type != .float32 {
        throw ctx.invalid("output \(k) has type \(try ctx.output(k).type), must be float32")
    }
    if merge {
        try ctx.setOutputShape(0, shape(forward + backward))
    } else {
        try ctx.setOutputShape(0, shape(forward))
        try ctx.setOutputShape(1, shape(backward))
    }
}

/// Inputs: 0 input, 1-17 forward weights and 18-34 backward weights (laid out as in
/// UNIDIRECTIONAL_SEQUENCE_LSTM's 1-17), 35-36 forward and 37-38 backward output and cell
/// states, 39-47 the auxiliary input and its weights.
private func prepareBidirectionalLSTM(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 39...48, outputs: 1...2)
    var o = Schema.BidirectionalSequenceLSTMOptions()
    if case .bidirectionalSequenceLSTMOptions(let given)? = ctx.options { o = given }
    let (batch, time, features) = try sequenceSizes(ctx, timeMajor: o.timeMajor, auxiliary: 39)
    let timeMajor = o.timeMajor
    let layout = FloatLSTMLayout(batch: batch, time: time, inputSize: features, timeMajor: timeMajor,
                                 activation: o.fusedActivationFunction, cellClip: o.cellClip, projectionClip: o.projClip,
                                 outputShape: { timeMajor ? [time, batch, $0] : [batch, time, $0] })
    var forward = try floatLSTMLayer(&ctx, layout, states: (35, 36), layerNormalisation: false)
    var backward = try floatLSTMLayer(&ctx, layout, weightBase: 17, states: (37, 38), layerNormalisation: false)
    backward.config.reversed = true
    let fw = forward.config.outputSize, bw = backward.config.outputSize
    if o.mergeOutputs {
        forward.config.outputRowStride = fw + bw
        backward.config.outputRowStride = fw + bw
    }
    try declareBidirectionalOutputs(&ctx, merge: o.mergeOutputs, timeMajor: timeMajor, batch: batch, time: time, forward: fw, backward: bw)
    ctx.requestScratch(bytes: max(forward.config.scratchCount, backward.config.scratchCount) * MemoryLayout<Float>.stride)
    let xi = try ctx.input(0).index, y0 = try ctx.output(0).index, y1 = o.mergeOutputs ? nil : try ctx.output(1).index
    let (fl, bl) = (forward, backward)
    return { c in
        fl.run(c, input: xi, output: c.data(y0, as: Float.self))
        bl.run(c, input: xi, output: y1.map { c.data($0, as: Float.self) } ?? c.data(y0, as: Float.self) + fw)
    }
}

/// Inputs: 0 input, 1-3 forward input weights, recurrent weights and bias, 4 forward hidden
/// state, 5-8 the same backward, 9-11 the auxiliary input and its weights.
private func prepareBidirectionalRNN(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 9...12, outputs: 1...2)
    var o = Schema.BidirectionalSequenceRNNOptions()
    if case .bidirectionalSequenceRNNOptions(let given)? = ctx.options { o = given }
    let (batch, time, features) = try sequenceSizes(ctx, timeMajor: o.timeMajor, auxiliary: 9)
    let forward = try rnnLayer(&ctx, weights: 1, state: 4, batch: batch, inputSize: features)
    let backward = try rnnLayer(&ctx, weights: 5, state: 8, batch: batch, inputSize: features)
    let fw = forward.units, bw = backward.units, timeMajor = o.timeMajor
    try declareBidirectionalOutputs(&ctx, merge: o.mergeOutputs, timeMajor: timeMajor, batch: batch, time: time, forward: fw, backward: bw)
    let activation = FusedActivation(o.fusedActivationFunction), merge = o.mergeOutputs
    let xi = try ctx.input(0).index, y0 = try ctx.output(0).index, y1 = merge ? nil : try ctx.output(1).index
    let fwRow = merge ? fw + bw : fw, bwRow = merge ? fw + bw : bw
    return { c in
        let x = c.data(xi, as: Float.self)
        let steps = (input: timeMajor ? batch * features : features, batch: timeMajor ? features : time * features)
        RNN.sequence(forward.cell(c, activation), input: x, steps: time, batch: batch,
                     inputStepStride: steps.input, inputBatchStride: steps.batch,
                     hidden: c.data(forward.state, as: Float.self), output: c.data(y0, as: Float.self),
                     outputStepStride: timeMajor ? batch * fwRow : fwRow, outputBatchStride: timeMajor ? fwRow : time * fwRow)
        RNN.sequence(backward.cell(c, activation), input: x, steps: time, batch: batch,
                     inputStepStride: steps.input, inputBatchStride: steps.batch,
                     hidden: c.data(backward.state, as: Float.self),
                     output: y1.map { c.data($0, as: Float.self) } ?? c.data(y0, as: Float.self) + fw,
                     outputStepStride: timeMajor ? batch * bwRow : bwRow, outputBatchStride: timeMajor ? bwRow : time * bwRow,
                     reversed: true)
    }
}
