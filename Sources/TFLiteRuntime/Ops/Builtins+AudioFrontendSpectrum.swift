import Kernels

/// TFLite Micro's signal-library custom ops that turn audio frames into a spectrum (the first
/// half of its micro_speech front end): window, FFT auto-scale, real FFT and energy. Each op
/// checks its tensors as TFLite Micro's prepare does, and further wherever TFLite Micro would
/// read or write out of bounds.
extension OpRegistry {
    mutating func registerAudioSpectrumOps() {
        register(custom: "SignalWindow", types: [.int16], prepareSignalWindow)
        register(custom: "SignalFftAutoScale", types: [.int16], prepareSignalFFTAutoScale)
        register(custom: "SignalRfft", types: [.int16, .int32, .float32], prepareSignalRFFT)
        register(custom: "SignalEnergy", types: [.int16], prepareSignalEnergy)
    }
}

/// `SignalWindow`: input 0 int16 frames, input 1 the int16 window (as long as a frame),
/// option `shift`.
private func prepareSignalWindow(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let x = try ctx.input(0), window = try ctx.input(1), y = try ctx.output(0)
    try ctx.requireSignal(x, .int16, "input")
    try ctx.requireSignal(window, .int16, rank: 1, "window (input 1)")
    try ctx.requireSignal(y, .int16, "output")
    guard x.rank >= 1, x.shape[x.rank - 1] == window.elementCount, window.elementCount > 0 else {
        throw ctx.invalid("input frames \(x.shape) must be as long as the window \(window.shape)")
    }
    let shift = try SignalOptions(ctx).int("shift", in: 0...31)
    try ctx.setOutputShape(0, x.shape)
    let n = x.elementCount, w = window.elementCount, xi = x.index, wi = window.index, yi = y.index
    return { c in
        AudioFrontend.applyWindow(input: c.values(xi, n, as: Int16.self), window: c.values(wi, w, as: Int16.self),
                                  shift: shift, output: c.mutableValues(yi, n, as: Int16.self))
    }
}

/// `SignalFftAutoScale`: one int16 vector in; the scaled vector and the int32 shift out.
private func prepareSignalFFTAutoScale(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 2...2)
    let x = try ctx.input(0), y = try ctx.output(0), bits = try ctx.output(1)
    try ctx.requireSignal(x, .int16, rank: 1, "input")
    try ctx.requireSignal(y, .int16, "output 0")
    try ctx.requireSignal(bits, .int32, "the scale output (1)")
    try ctx.setOutputShape(0, x.shape)
    try ctx.setOutputShape(1, [])
    let n = x.elementCount, xi = x.index, yi = y.index, bi = bits.index
    return { c in
        c.data(bi, as: Int32.self).pointee = AudioFrontend.fftAutoScale(input: c.values(xi, n, as: Int16.self),
                                                                        output: c.mutableValues(yi, n, as: Int16.self))
    }
}

/// `SignalRfft`: frames along the last axis (each zero-padded to `fft_length`) to
/// `fft_length / 2 + 1` interleaved complex values of the same type. Option `T` is the
/// TensorType of the samples (int16, int32 or float32), `fft_length` the transform length.
private func prepareSignalRFFT(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    let options = try SignalOptions(ctx)
    let tensorType = try options.int("T", in: 0...255)
    let types: [Int: DataType] = [0: .float32, 2: .int32, 7: .int16]
    guard let type = types[tensorType] else {
        throw ctx.unsupported("option 'T' = \(tensorType); only int16 (7), int32 (2) and float32 (0) samples")
    }
    try ctx.requireSignal(x, type, "input (option 'T' says \(type.name))")
    try ctx.requireSignal(y, type, "output")
    guard x.rank >= 1 else { throw ctx.invalid("input must have rank 1 or more, is a scalar") }
    let length = try options.int("fft_length", in: 1...(1 << 30))
    let frameLength = x.shape[x.rank - 1]
    guard frameLength <= length else { throw ctx.invalid("frames of \(frameLength) samples exceed fft_length \(length)") }
    // Scratch and the two twiddle tables: about four scalars per sample.
    let bytes = 4 * length * (type.byteSize ?? 4)
    guard bytes <= ctx.executor.memoryLimit else { throw .memoryLimitExceeded(requested: bytes, limit: ctx.executor.memoryLimit) }
    let frames = Shape.product(x.shape, 0..<x.rank - 1)
    try ctx.setOutputShape(0, Array(x.shape.dropLast()) + [length + 2])
    func kernel<S: KissFFTScalar>(_: S.Type) throws(InterpreterError) -> NodeKernel {
        guard let fft = AudioFrontend.RealFFT<S>(length: length) else {
            throw ctx.unsupported("fft_length \(length): it must be even, with half of it a product of 2, 3 and 5")
        }
        ctx.requestScratch(bytes: fft.scratchCount * MemoryLayout<S>.stride)
        let xi = x.index, yi = y.index
        return { c in
            fft.transform(frames: frames, input: c.data(xi, as: S.self), frameLength: frameLength,
                          output: c.data(yi, as: S.self), scratch: c.scratch.assumingMemoryBound(to: S.self))
        }
    }
    switch type {
    case .int16: return try kernel(Int16.self)
    case .int32: return try kernel(Int32.self)
    default: return try kernel(Float.self)
    }
}

/// `SignalEnergy`: an int16 complex spectrum in, the uint32 energies of bins
/// `start_index..<end_index` out (zero elsewhere).
private func prepareSignalEnergy(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    try ctx.requireSignal(x, .int16, rank: 1, "input")
    try ctx.requireSignal(y, .uInt32, "output")
    guard x.elementCount % 2 == 0 else { throw ctx.invalid("input \(x.shape) must hold (real, imaginary) pairs") }
    let bins = x.elementCount / 2
    let options = try SignalOptions(ctx)
    let start = try options.int("start_index", in: 0...Int64(Int32.max))
    let end = try options.int("end_index", in: 0...Int64(bins))
    try ctx.setOutputShape(0, [bins])
    let xi = x.index, yi = y.index
    return { c in
        AudioFrontend.energy(spectrum: c.values(xi, 2 * bins, as: Int16.self), start: start, end: end,
                             output: c.mutableValues(yi, bins, as: UInt32.self))
    }
}
