import Kernels

/// TFLite Micro's signal-library custom ops that turn a spectrum into features (the second
/// half of its micro_speech front end): the mel filter bank, its square root, spectral
/// subtraction, PCAN and log. Each op checks its tensors as TFLite Micro's prepare does, and
/// further wherever TFLite Micro would read or write out of bounds.
extension OpRegistry {
    mutating func registerAudioFilterBankOps() {
        register(custom: "SignalFilterBank", types: [.uInt32], prepareSignalFilterBank)
        register(custom: "SignalFilterBankSquareRoot", types: [.uInt64], prepareSignalFilterBankSquareRoot)
        // The noise estimate is state carried from one invocation to the next.
        register(custom: "SignalFilterBankSpectralSubtraction", types: [.uInt32], foldable: false,
                 prepareSignalSpectralSubtraction)
        register(custom: "SignalPCAN", types: [.uInt32], prepareSignalPCAN)
        register(custom: "SignalFilterBankLog", types: [.uInt32], prepareSignalFilterBankLog)
    }
}

/// `SignalFilterBank`: input 0 the uint32 energy spectrum, inputs 1 to 5 the int16 tables
/// (weights, unweights, channel frequency starts, channel weight starts, channel widths),
/// option `num_channels`; out the uint64 channel sums. Tables are checked once when constant,
/// else at every invocation.
private func prepareSignalFilterBank(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 6...6, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    try ctx.requireSignal(x, .uInt32, rank: 1, "input")
    let names = ["weights", "unweights", "channel frequency starts", "channel weight starts", "channel widths"]
    var tables: [TensorInfo] = []
    for (k, name) in names.enumerated() {
        let t = try ctx.input(k + 1)
        try ctx.requireSignal(t, .int16, rank: 1, "\(name) (input \(k + 1))")
        tables.append(t)
    }
    try ctx.requireSignal(y, .uInt64, "output")
    let channels = try SignalOptions(ctx).int("num_channels", in: 0...Int64(Int32.max - 1))
    let bins = x.elementCount, counts = tables.map(\.elementCount), ids = tables.map(\.index)
    func bind(_ pointer: (Int) -> UnsafeRawPointer) -> AudioFrontend.FilterBankTables {
        func table(_ k: Int) -> UnsafeBufferPointer<Int16> {
            UnsafeBufferPointer(start: pointer(k).assumingMemoryBound(to: Int16.self), count: counts[k])
        }
        return .init(weights: table(0), unweights: table(1), frequencyStarts: table(2), weightStarts: table(3), widths: table(4))
    }
    let constant = tables.allSatisfy(\.isConstant)
    if constant, let problem = bind({ tables[$0].constantData! }).problem(channels: channels, bins: bins) {
        throw ctx.invalid(problem)
    }
    // Run-time tables have their values checked at each invocation, but their lengths now.
    if !constant && tables[2...4].contains(where: { $0.elementCount < channels + 1 }) {
        throw ctx.invalid("the channel tables (inputs 3 to 5) must hold \(channels + 1) entries for \(channels) channels")
    }
    try ctx.setOutputShape(0, [channels])
    let xi = x.index, yi = y.index, failure = ctx.failure
    return { (c) throws(InterpreterError) in
        let bound = bind { UnsafeRawPointer(c.raw(ids[$0])) }
        if !constant, let problem = bound.problem(channels: channels, bins: bins) { throw failure(problem) }
        AudioFrontend.filterBank(spectrum: c.values(xi, bins, as: UInt32.self), tables: bound,
                                 output: c.mutableValues(yi, channels, as: UInt64.self))
    }
}

/// `SignalFilterBankSquareRoot`: uint64 channels and the int32 scalar scale shift in, uint32
/// roots out.
private func prepareSignalFilterBankSquareRoot(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let x = try ctx.input(0), bits = try ctx.input(1), y = try ctx.output(0)
    try ctx.requireSignal(x, .uInt64, rank: 1, "input")
    try ctx.requireSignal(bits, .int32, rank: 0, "scale bits (input 1)")
    try ctx.requireSignal(y, .uInt32, "output")
    try ctx.setOutputShape(0, x.shape)
    let n = x.elementCount, xi = x.index, bi = bits.index, yi = y.index, failure = ctx.failure
    return { (c) throws(InterpreterError) in
        let shift = Int(c.data(bi, as: Int32.self).pointee)
        guard (0..<32).contains(shift) else { throw failure("scale bits \(shift) are outside 0..<32") }
        AudioFrontend.filterBankSquareRoot(input: c.values(xi, n, as: UInt64.self), scaleBits: shift,
                                           output: c.mutableValues(yi, n, as: UInt32.self))
    }
}

/// `SignalFilterBankSpectralSubtraction`: uint32 channels in; the noise-reduced channels and
/// the noise estimate out. The estimate is the op's state: it starts at zero when the
/// interpreter allocates (as TFLite Micro's starts at its prepare and reset) and carries over
/// from one invocation to the next.
private func prepareSignalSpectralSubtraction(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 2...2)
    let x = try ctx.input(0), y = try ctx.output(0), estimateOut = try ctx.output(1)
    try ctx.requireSignal(x, .uInt32, rank: 1, "input")
    try ctx.requireSignal(y, .uInt32, "output 0")
    try ctx.requireSignal(estimateOut, .uInt32, "the noise estimate output (1)")
    // A node after a run-time shape is prepared again at every invocation, which would lose the state.
    guard !ctx.executor.tensors[x.index].isDynamic else {
        throw ctx.unsupported("an input whose shape is known only at run time (the noise estimate must persist)")
    }
    let options = try SignalOptions(ctx)
    let channels = try options.int("num_channels", in: 0...Int64(Int32.max))
    guard x.elementCount == channels else { throw ctx.invalid("input \(x.shape) must hold num_channels = \(channels) values") }
    let coefficient = 0...Int64(UInt32.max)
    let config = AudioFrontend.SpectralSubtractionConfig(
        smoothing: UInt32(try options.int("smoothing", in: coefficient)),
        oneMinusSmoothing: UInt32(try options.int("one_minus_smoothing", in: coefficient)),
        alternateSmoothing: UInt32(try options.int("alternate_smoothing", in: coefficient)),
        alternateOneMinusSmoothing: UInt32(try options.int("alternate_one_minus_smoothing", in: coefficient)),
        minSignalRemaining: UInt32(try options.int("min_signal_remaining", in: coefficient)),
        smoothingBits: try options.int("smoothing_bits", in: 0...31),
        spectralSubtractionBits: try options.int("spectral_subtraction_bits", in: 0...63),
        clamping: try options.bool("clamping"))
    try ctx.setOutputShape(0, [channels])
    try ctx.setOutputShape(1, [channels])
    let state = AlignedBuffer(byteCount: channels * MemoryLayout<UInt32>.stride)
    let xi = x.index, yi = y.index, ei = estimateOut.index
    return { c in
        let estimate = UnsafeMutableBufferPointer(start: state.pointer.assumingMemoryBound(to: UInt32.self), count: channels)
        AudioFrontend.spectralSubtraction(input: c.values(xi, channels, as: UInt32.self), config: config,
                                          noiseEstimate: estimate, output: c.mutableValues(yi, channels, as: UInt32.self))
        _ = c.mutableValues(ei, channels, as: UInt32.self).update(fromContentsOf: estimate)
    }
}

/// `SignalPCAN`: uint32 channels, their uint32 noise estimate and the int16 gain table in,
/// option `snr_shift`; normalised uint32 channels out.
private func prepareSignalPCAN(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 1...1)
    let x = try ctx.input(0), noise = try ctx.input(1), table = try ctx.input(2), y = try ctx.output(0)
    try ctx.requireSignal(x, .uInt32, rank: 1, "input")
    try ctx.requireSignal(noise, .uInt32, rank: 1, "noise estimate (input 1)")
    try ctx.requireSignal(table, .int16, rank: 1, "gain table (input 2)")
    try ctx.requireSignal(y, .uInt32, "output")
    guard noise.elementCount == x.elementCount else {
        throw ctx.invalid("noise estimate \(noise.shape) must match the input \(x.shape)")
    }
    let needed = AudioFrontend.pcanGainTableCount
    guard table.elementCount >= needed else {
        throw ctx.invalid("gain table holds \(table.elementCount) entries, \(needed) needed to cover 32-bit noise estimates")
    }
    let shift = try SignalOptions(ctx).int("snr_shift", in: 0...63)
    try ctx.setOutputShape(0, x.shape)
    let n = x.elementCount, lut = table.elementCount, xi = x.index, ni = noise.index, ti = table.index, yi = y.index
    return { c in
        AudioFrontend.pcan(input: c.values(xi, n, as: UInt32.self), noiseEstimate: c.values(ni, n, as: UInt32.self),
                           gainTable: c.values(ti, lut, as: Int16.self), snrShift: shift,
                           output: c.mutableValues(yi, n, as: UInt32.self))
    }
}

/// `SignalFilterBankLog`: uint32 channels in, options `input_correction_bits` and
/// `output_scale`; int16 scaled logarithms out.
private func prepareSignalFilterBankLog(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    try ctx.requireSignal(x, .uInt32, rank: 1, "input")
    try ctx.requireSignal(y, .int16, "output")
    let options = try SignalOptions(ctx)
    let correction = try options.int("input_correction_bits", in: 0...31)
    let scale = UInt32(try options.int("output_scale", in: 0...Int64(Int32.max)))
    try ctx.setOutputShape(0, x.shape)
    let n = x.elementCount, xi = x.index, yi = y.index
    return { c in
        AudioFrontend.filterBankLog(input: c.values(xi, n, as: UInt32.self), outputScale: scale, correctionBits: correction,
                                    output: c.mutableValues(yi, n, as: Int16.self))
    }
}
