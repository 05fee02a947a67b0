#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Kernels

/// UNIDIRECTIONAL_SEQUENCE_LSTM in float32 and int8 (with an int16 cell state),
/// and LSTM (one step of the same cell, float32, full kernel). Inputs follow TFLite's layout:
/// 0 input, 1-4 input weights (input, forget, cell, output gates), 5-8 recurrent weights, 9-11
/// peepholes, 12-15 biases, 16-17 projection weights and bias, 18 output state, 19 cell state,
/// 20-23 layer normalisation weights. The two state tensors keep their values between
/// invocations.
extension OpRegistry {
    mutating func registerSequenceOps() {
        // Hybrid and 16x8 kernels write float or int16 outputs from other inputs.
        register(.unidirectionalSequenceLstm, types: [.float32, .int8], outputTypes: .checkedByOp, foldable: false, prepareUnidirectionalLSTM)
        register(.lstm, types: [.float32], outputTypes: .checkedByOp, foldable: false, prepareLSTMStep)
    }
}

/// The float layer's sizes and options, from either op's input shape and options.
struct FloatLSTMLayout {
    var batch: Int, time: Int, inputSize: Int, timeMajor: Bool
    var activation: Schema.ActivationFunctionType, cellClip: Float, projectionClip: Float
    /// The output shape for `outputSize` outputs per step.
    var outputShape: (Int) -> [Int]
}

/// LSTM: one step over a `[batch, input]` input, writing `[batch, output]`. Only the full
/// kernel (24 inputs at most); the 4-input basic kernel is refused.
private func prepareLSTMStep(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 20...24, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    guard x.type == .float32, y.type == .float32 else { throw ctx.unsupported("types \(x.type) -> \(y.type); only float32") }
    guard x.rank == 2 else { throw ctx.invalid("input must be [batch, features], has shape \(x.shape)") }
    var options = Schema.LSTMOptions()
    if case .lSTMOptions(let o)? = ctx.options { options = o }
    guard options.kernelType == .full else { throw ctx.unsupported("the basic LSTM kernel") }
    let batch = x.shape[0]
    return try prepareFloatLSTM(&ctx, FloatLSTMLayout(
        batch: batch, time: 1, inputSize: x.shape[1], timeMajor: false, activation: options.fusedActivationFunction,
        cellClip: options.cellClip, projectionClip: options.projClip, outputShape: { [batch, $0] }))
}

private func prepareUnidirectionalLSTM(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 20...24, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    guard x.rank == 3 else { throw ctx.invalid("input must be [batch, time, features] (or time-major), has shape \(x.shape)") }
    var options = Schema.UnidirectionalSequenceLSTMOptions()
    if case .unidirectionalSequenceLSTMOptions(let o)? = ctx.options { options = o }
    if x.type == .int8 {
        for i in 20..<ctx.inputCount where ctx.optionalInput(i) != nil {
            throw ctx.unsupported("layer-normalised integer LSTM (input \(i) is present)")
        }
        return try prepareIntegerUnidirectionalLSTM(&ctx, options: options)
    }
    guard x.type == .float32, y.type == .float32 else { throw ctx.unsupported("types \(x.type) -> \(y.type); only float32 and int8") }
    let timeMajor = options.timeMajor
    let batch = timeMajor ? x.shape[1] : x.shape[0], time = timeMajor ? x.shape[0] : x.shape[1]
    return try prepareFloatLSTM(&ctx, FloatLSTMLayout(
        batch: batch, time: time, inputSize: x.shape[2], timeMajor: timeMajor, activation: options.fusedActivationFunction,
        cellClip: options.cellClip, projectionClip: options.projClip,
        outputShape: { timeMajor ? [time, batch, $0] : [batch, time, $0] }))
}

private func prepareFloatLSTM(_ ctx: inout PrepareContext, _ layout: FloatLSTMLayout) throws(InterpreterError) -> NodeKernel {
    let layer = try floatLSTMLayer(&ctx, layout)
    try ctx.setOutputShape(0, layout.outputShape(layer.config.outputSize))
    ctx.requestScratch(bytes: layer.config.scratchCount * MemoryLayout<Float>.stride)
    let xi = try ctx.input(0).index, yi = try ctx.output(0).index
    return { c in layer.run(c, input: xi, output: c.data(yi, as: Float.self)) }
}

/// One float LSTM layer of a node: its configuration and the tensors it reads, found at the
/// unidirectional op's input positions shifted by `weightBase` (BIDIRECTIONAL_SEQUENCE_LSTM
/// keeps its backward weights 17 places on), with its two state tensors at `states`.
struct FloatLSTMLayer {
    var config: UnidirectionalSequenceLSTM.Configuration
    let inputWeights: [Int?], recurrentWeights: [Int?], biases: [Int?], peepholes: [Int?], layerNorm: [Int?]
    let projectionWeights: Int?, projectionBias: Int?, outputState: Int, cellState: Int

    func run(_ c: InvokeContext, input: Int, output: UnsafeMutablePointer<Float>) {
        func pointer(_ i: Int?) -> UnsafePointer<Float>? { i.map { UnsafePointer(c.data($0, as: Float.self)) } }
        let weights = UnidirectionalSequenceLSTM.Weights(
            inputWeights: inputWeights.map(pointer), recurrentWeights: recurrentWeights.map(pointer),
            peepholes: peepholes.map(pointer), biases: biases.map(pointer),
            projection: pointer(projectionWeights), projectionBias: pointer(projectionBias),
            layerNorm: layerNorm.map(pointer))
        UnidirectionalSequenceLSTM.run(config, input: c.data(input, as: Float.self), weights: weights,
                                       outputState: c.data(outputState, as: Float.self), cellState: c.data(cellState, as: Float.self),
                                       output: output, scratch: c.scratch.assumingMemoryBound(to: Float.self))
    }
}

func floatLSTMLayer(_ ctx: inout PrepareContext, _ layout: FloatLSTMLayout, weightBase: Int = 0,
                    states: (output: Int, cell: Int) = (18, 19), layerNormalisation: Bool = true) throws(InterpreterError) -> FloatLSTMLayer {
    let batch = layout.batch, time = layout.time, inputSize = layout.inputSize, timeMajor = layout.timeMajor
    guard let forgetWeights = ctx.optionalInput(weightBase + 2), forgetWeights.rank == 2 else {
        throw ctx.invalid("input-to-forget weights (input \(weightBase + 2)) must be a matrix")
    }
    let cells = forgetWeights.shape[0]
    let projection = ctx.optionalInput(weightBase + 16)
    let outputSize = projection?.shape.first ?? cells

    /// A float32 tensor of `shape`, or nil when omitted (only when `optional`).
    func weight(_ i: Int, _ shape: [Int], optional: Bool = false) throws(InterpreterError) -> Int? {
        guard let t = ctx.optionalInput(i) else {
            if optional { return nil }
            throw ctx.invalid("input \(i) is required")
        }
        guard t.type == .float32 else { throw ctx.unsupported("input \(i) has type \(t.type) (quantised and hybrid LSTMs are not supported)") }
        guard t.shape == shape else { throw ctx.invalid("input \(i) has shape \(t.shape), expected \(shape)") }
        return t.index
    }
    let cifg = ctx.optionalInput(weightBase + 1) == nil
    var inputWeights: [Int?] = [], recurrentWeights: [Int?] = [], biases: [Int?] = []
    for g in 0..<4 {
        let optional = g == 0 && cifg
        inputWeights.append(try weight(weightBase + 1 + g, [cells, inputSize], optional: optional))
        recurrentWeights.append(try weight(weightBase + 5 + g, [cells, outputSize], optional: optional))
        biases.append(try weight(weightBase + 12 + g, [cells], optional: optional))
    }
    let peepholes: [Int?] = [try weight(weightBase + 9, [cells], optional: true), try weight(weightBase + 10, [cells], optional: true), nil,
                             try weight(weightBase + 11, [cells], optional: true)]
    let projectionWeights = try weight(weightBase + 16, [outputSize, cells], optional: true)
    let projectionBias = try weight(weightBase + 17, [outputSize], optional: true)
    // Layer normalisation: coefficients for every gate (but the input gate under CIFG), or none.
    var layerNorm: [Int?] = []
    for g in 0..<4 { layerNorm.append(layerNormalisation && ctx.inputCount > 20 + g ? try weight(20 + g, [cells], optional: true) : nil) }
    guard layerNorm[1...].allSatisfy({ $0 == nil }) || (layerNorm[1...].allSatisfy({ $0 != nil }) && (layerNorm[0] == nil) == cifg) else {
        throw ctx.invalid("layer normalisation needs coefficients (inputs 20-23) for every gate the LSTM has")
    }
    guard let outputState = try weight(states.output, [batch, outputSize]), let cellState = try weight(states.cell, [batch, cells]) else {
        throw ctx.invalid("the output and cell state inputs (\(states.output), \(states.cell)) are required")
    }
    guard !(ctx.optionalInput(states.output)?.isConstant ?? false), !(ctx.optionalInput(states.cell)?.isConstant ?? false) else {
        throw ctx.invalid("the state inputs (\(states.output), \(states.cell)) must be variables, not constants")
    }
    let config = UnidirectionalSequenceLSTM.Configuration(
        batch: batch, time: time, inputSize: inputSize, cells: cells, outputSize: outputSize, timeMajor: timeMajor,
        activation: FusedActivation(layout.activation), cellClip: layout.cellClip, projectionClip: layout.projectionClip)
    return FloatLSTMLayer(config: config, inputWeights: inputWeights, recurrentWeights: recurrentWeights, biases: biases,
                          peepholes: peepholes, layerNorm: layerNorm, projectionWeights: projectionWeights,
                          projectionBias: projectionBias, outputState: outputState, cellState: cellState)
}

/// UNIDIRECTIONAL_SEQUENCE_LSTM on int8 activations with an int16 cell state, prepared as
/// LiteRT's `PopulateQuantizedLstmParams8x8_16` does: every gate's products are rescaled into
/// Q3.12 (the scale of the activations' inputs when there is no layer normalisation), the
/// zero points are folded into per-cell biases, and intermediate 4 gives the hidden state's
/// scale and zero point.
private func prepareIntegerUnidirectionalLSTM(_ ctx: inout PrepareContext, options: Schema.UnidirectionalSequenceLSTMOptions)
    throws(InterpreterError) -> NodeKernel {
    let x = try ctx.input(0), y = try ctx.output(0)
    guard y.type == .int8 else { throw ctx.unsupported("int8 input with \(y.type) output; only int8 -> int8") }
    guard ctx.optionalInput(1) != nil else { throw ctx.unsupported("integer LSTM with coupled input and forget gates (CIFG)") }
    for (i, feature) in [(9, "peepholes"), (10, "peepholes"), (11, "peepholes"), (16, "projection"), (17, "projection")]
        where ctx.optionalInput(i) != nil {
        throw ctx.unsupported("integer LSTM with \(feature) (input \(i) is present)")
    }
    let timeMajor = options.timeMajor
    let batch = timeMajor ? x.shape[1] : x.shape[0], time = timeMajor ? x.shape[0] : x.shape[1], inputSize = x.shape[2]
    let forget = try ctx.input(2)
    guard forget.rank == 2 else { throw ctx.invalid("input-to-forget weights (input 2) must be a matrix") }
    let cells = forget.shape[0]

    let inputQ = try ctx.affine(x, role: "input")
    let outputState = try ctx.input(18), cellState = try ctx.input(19)
    guard outputState.type == .int8, outputState.shape == [batch, cells] else {
        throw ctx.invalid("output state (input 18) must be int8 \([batch, cells]), is \(outputState.type) \(outputState.shape)")
    }
    guard cellState.type == .int16, cellState.shape == [batch, cells] else {
        throw ctx.invalid("cell state (input 19) must be int16 \([batch, cells]), is \(cellState.type) \(cellState.shape)")
    }
    guard !outputState.isConstant, !cellState.isConstant else {
        throw ctx.invalid("the state inputs (18, 19) must be variables, not constants")
    }
    let stateQ = try ctx.affine(outputState, role: "output state")
    let cellQ = try ctx.affine(cellState, role: "cell state")
    // The cell state's scale must be a power of two (LiteRT's CheckedLog2), and the tanh of
    // the cell state exists for 0 to 6 integer bits.
    let exactLog2 = logf(cellQ.scale) * (1 / logf(2)), log2 = exactLog2.rounded()
    guard abs(exactLog2 - log2) < 1e-3, (-15...(-9)).contains(Int(log2)) else {
        throw ctx.unsupported("cell state scale \(cellQ.scale) must be a power of two from 2^-15 to 2^-9")
    }
    guard let hidden = ctx.intermediate(4), let hiddenQ = hidden.quantization, hiddenQ.scale > 0, hiddenQ.scale.isFinite,
          let hiddenZero = Int32(exactly: hiddenQ.zeroPoint), (-128...127).contains(hiddenZero) else {
        throw ctx.invalid("the integer LSTM needs a quantised hidden-state intermediate (intermediate 4)")
    }

    let gateScale = Float(1.0 / 4096)
    var gates: [UnidirectionalSequenceLSTMInteger.Gate] = []
    var inputWeights: [Int] = [], recurrentWeights: [Int] = []
    for g in 0..<4 {
        let wx = try ctx.input(1 + g), wh = try ctx.input(5 + g), bias = try ctx.input(12 + g)
        guard wx.type == .int8, wx.shape == [cells, inputSize], wh.type == .int8, wh.shape == [cells, cells] else {
            throw ctx.invalid("gate \(g) weights must be int8 \([cells, inputSize]) and \([cells, cells]), are \(wx.type) \(wx.shape) and \(wh.type) \(wh.shape)")
        }
        guard bias.type == .int32, bias.shape == [cells] else {
            throw ctx.invalid("gate \(g) bias must be int32 \([cells]), is \(bias.type) \(bias.shape)")
        }
        guard let wxValues = wx.constantValues(as: Int8.self), let whValues = wh.constantValues(as: Int8.self),
              let biasValues = bias.constantValues(as: Int32.self) else {
            throw ctx.unsupported("integer LSTM weights and biases computed at run time")
        }
        let wxScale = try ctx.weightScales(wx, channels: 1, axis: 0).scales[0]
        let whScale = try ctx.weightScales(wh, channels: 1, axis: 0).scales[0]
        gates.append(.init(
            inputMultiplier: QuantizedMultiplier(Double(wxScale * inputQ.scale / gateScale)),
            recurrentMultiplier: QuantizedMultiplier(Double(whScale * stateQ.scale / gateScale)),
            inputBias: UnidirectionalSequenceLSTMInteger.foldedBias(weights: wxValues, rows: cells, columns: inputSize,
                                                                    zeroPoint: inputQ.zeroPoint, bias: biasValues),
            recurrentBias: UnidirectionalSequenceLSTMInteger.foldedBias(weights: whValues, rows: cells, columns: cells,
                                                                        zeroPoint: stateQ.zeroPoint, bias: nil)))
        inputWeights.append(wx.index)
        recurrentWeights.append(wh.index)
    }
    let cellClip = options.cellClip > 0 ? Int16(min(max(options.cellClip / cellQ.scale, -32768), 32767)) : 0
    let config = UnidirectionalSequenceLSTMInteger.Configuration(
        batch: batch, time: time, inputSize: inputSize, cells: cells, timeMajor: timeMajor, gates: gates,
        cellScaleLog2: Int(log2), cellClip: cellClip,
        hiddenMultiplier: QuantizedMultiplier(Double(Float(1.0 / 32768 / Double(hiddenQ.scale) / 32768))),
        hiddenZeroPoint: hiddenZero)
    try ctx.setOutputShape(0, timeMajor ? [time, batch, cells] : [batch, time, cells])
    ctx.requestScratch(bytes: config.scratchCount * MemoryLayout<Int16>.stride)
    let xi = x.index, yi = y.index, hi = outputState.index, ci = cellState.index
    return { c in
        UnidirectionalSequenceLSTMInteger.run(
            config, input: c.data(xi, as: Int8.self),
            inputWeights: inputWeights.map { UnsafePointer(c.data($0, as: Int8.self)) },
            recurrentWeights: recurrentWeights.map { UnsafePointer(c.data($0, as: Int8.self)) },
            outputState: c.data(hi, as: Int8.self), cellState: c.data(ci, as: Int16.self),
            output: c.data(yi, as: Int8.self), scratch: c.scratch.assumingMemoryBound(to: Int16.self))
    }
}
