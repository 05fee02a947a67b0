import Kernels

/// RNN (one step over `[batch, input]`) and UNIDIRECTIONAL_SEQUENCE_RNN (every step of a
/// `[batch, time, input]` or time-major sequence) in float32: inputs 0 input, 1 input
/// weights `[units, input]`, 2 recurrent weights `[units, units]`, 3 bias `[units]`, 4 the
/// hidden state `[batch, units]`, a variable kept between invocations. The hybrid form (int8
/// weights) is not supported.
extension OpRegistry {
    mutating func registerRNNOps() {
        // Hybrid and 16x8 kernels write float or int16 outputs from other inputs.
        register(.rnn, types: [.float32], outputTypes: .checkedByOp, foldable: false, prepareRNNStep)
        register(.unidirectionalSequenceRnn, types: [.float32], outputTypes: .checkedByOp, foldable: false, prepareSequenceRNN)
    }
}

/// One recurrent layer's tensors: weights, recurrent weights and bias at `weights`,
/// `weights + 1`, `weights + 2`, and its hidden state.
struct RNNLayer {
    let inputWeights: Int, recurrentWeights: Int, bias: Int, state: Int, inputSize: Int, units: Int

    func cell(_ c: InvokeContext, _ activation: FusedActivation) -> RNN.Cell {
        RNN.Cell(inputWeights: c.data(inputWeights, as: Float.self), recurrentWeights: c.data(recurrentWeights, as: Float.self),
                 bias: c.data(bias, as: Float.self), inputSize: inputSize, units: units, activation: activation)
    }
}

func rnnLayer(_ ctx: inout PrepareContext, weights w: Int, state s: Int, batch: Int, inputSize: Int) throws(InterpreterError) -> RNNLayer {
    let inputWeights = try ctx.input(w), recurrent = try ctx.input(w + 1), bias = try ctx.input(w + 2), state = try ctx.input(s)
    for (i, t) in [(w, inputWeights), (w + 1, recurrent), (w + 2, bias), (s, state)] where t.type != .float32 {
        throw ctx.unsupported("input \(i) has type \(t.type) (the hybrid RNN is not supported)")
    }
    guard inputWeights.rank == 2, inputWeights.shape[1] == inputSize else {
        throw ctx.invalid("input weights (input \(w)) must be [units, \(inputSize)], are \(inputWeights.shape)")
    }
    let units = inputWeights.shape[0]
    guard recurrent.shape == [units, units] else { throw ctx.invalid("recurrent weights (input \(w + 1)) must be [\(units), \(units)], are \(recurrent.shape)") }
    guard bias.shape == [units] else { throw ctx.invalid("bias (input \(w + 2)) must be [\(units)], is \(bias.shape)") }
    guard state.shape == [batch, units] else { throw ctx.invalid("hidden state (input \(s)) must be [\(batch), \(units)], is \(state.shape)") }
    guard !state.isConstant else { throw ctx.invalid("the hidden state (input \(s)) must be a variable, not a constant") }
    return RNNLayer(inputWeights: inputWeights.index, recurrentWeights: recurrent.index, bias: bias.index, state: state.index,
                    inputSize: inputSize, units: units)
}

/// Input 0 and output 0, both float32, the input of rank `rank` as `layout` names its axes.
private func floatOperands(_ ctx: PrepareContext, rank: Int, layout: String) throws(InterpreterError) -> (TensorInfo, TensorInfo) {
    let x = try ctx.input(0), y = try ctx.output(0)
    guard x.type == .float32, y.type == .float32 else { throw ctx.unsupported("types \(x.type) -> \(y.type); only float32") }
    guard x.rank == rank else { throw ctx.invalid("input must be \(layout), has shape \(x.shape)") }
    return (x, y)
}

private func prepareRNNStep(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 5...5, outputs: 1...1)
    var o = Schema.RNNOptions()
    if case .rNNOptions(let given)? = ctx.options { o = given }
    let (x, y) = try floatOperands(ctx, rank: 2, layout: "[batch, features]")
    let batch = x.shape[0], layer = try rnnLayer(&ctx, weights: 1, state: 4, batch: batch, inputSize: x.shape[1])
    try ctx.setOutputShape(0, [batch, layer.units])
    let activation = FusedActivation(o.fusedActivationFunction), xi = x.index, yi = y.index, units = layer.units
    return { c in
        RNN.sequence(layer.cell(c, activation), input: c.data(xi, as: Float.self), steps: 1, batch: batch,
                     inputStepStride: 0, inputBatchStride: layer.inputSize, hidden: c.data(layer.state, as: Float.self),
                     output: c.data(yi, as: Float.self), outputStepStride: 0, outputBatchStride: units)
    }
}

private func prepareSequenceRNN(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 5...5, outputs: 1...1)
    var o = Schema.SequenceRNNOptions()
    if case .sequenceRNNOptions(let given)? = ctx.options { o = given }
    let (x, y) = try floatOperands(ctx, rank: 3, layout: "[batch, time, features] (or time-major)")
    let timeMajor = o.timeMajor
    let batch = timeMajor ? x.shape[1] : x.shape[0], time = timeMajor ? x.shape[0] : x.shape[1], features = x.shape[2]
    let layer = try rnnLayer(&ctx, weights: 1, state: 4, batch: batch, inputSize: features)
    let units = layer.units
    try ctx.setOutputShape(0, timeMajor ? [time, batch, units] : [batch, time, units])
    let activation = FusedActivation(o.fusedActivationFunction), xi = x.index, yi = y.index
    return { c in
        RNN.sequence(layer.cell(c, activation), input: c.data(xi, as: Float.self), steps: time, batch: batch,
                     inputStepStride: timeMajor ? batch * features : features, inputBatchStride: timeMajor ? features : time * features,
                     hidden: c.data(layer.state, as: Float.self), output: c.data(yi, as: Float.self),
                     outputStepStride: timeMajor ? batch * units : units, outputBatchStride: timeMajor ? units : time * units)
    }
}
