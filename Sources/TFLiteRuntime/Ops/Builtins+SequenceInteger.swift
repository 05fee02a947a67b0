#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Kernels

/// UNIDIRECTIONAL_SEQUENCE_LSTM on int8 activations with an int16 cell state, prepared as
/// LiteRT's `PopulateQuantizedLstmParams8x8_16` does: every gate's products are rescaled into
/// Q3.12 (the scale of the activations' inputs when there is no layer normalisation), the
/// zero points are folded into per-cell biases, and intermediate 4 gives the hidden state's
/// scale and zero point.
func prepareIntegerUnidirectionalLSTM(_ ctx: inout PrepareContext, options: Schema.UnidirectionalSequenceLSTMOptions)
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
