import FlatBuffers
import Kernels

/// TensorFlow's audio feature custom ops that LiteRT's resolver registers: `AudioSpectrogram`
/// (float `[samples, channels]` to `[channels, frames, bins]`) and `Mfcc` (a spectrogram and an
/// int32 sample rate to `[channels, frames, coefficients]`). Options are FlexBuffer maps.
extension OpRegistry {
    mutating func registerAudioFeatureOps() {
        register(custom: "AudioSpectrogram", types: [.float32], prepareAudioSpectrogram)
        register(custom: "Mfcc", types: [.float32], prepareMfcc)
    }
}

private func prepareAudioSpectrogram(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let options = try FlexOptions(ctx)
    let windowSize = try options.int("window_size", ctx), stride = try options.int("stride", ctx)
    let squared = try options.bool("magnitude_squared", ctx)
    let x = try ctx.input(0), y = try ctx.output(0)
    try ctx.requireType(input: 0, .float32)
    guard y.type == .float32 else { throw ctx.invalid("output type \(y.type) must be float32") }
    guard x.rank == 2 else { throw ctx.invalid("input must be [samples, channels], has shape \(x.shape)") }
    guard let spectrogram = AudioSpectrogram(window: windowSize, stride: stride) else {
        throw ctx.invalid("window_size \(windowSize) must be at least 2 and stride \(stride) at least 1")
    }
    let samples = x.shape[0], channels = x.shape[1]
    try ctx.setOutputShape(0, [channels, spectrogram.frames(samples: samples), spectrogram.bins])
    ctx.requestScratch(bytes: spectrogram.workCount * MemoryLayout<Double>.stride)
    let xi = x.index, yi = y.index
    return { c in
        spectrogram.run(input: c.data(xi, as: Float.self), samples: samples, channels: channels, magnitudeSquared: squared,
                        output: c.data(yi, as: Float.self), work: c.scratch.assumingMemoryBound(to: Double.self))
    }
}

private func prepareMfcc(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let options = try FlexOptions(ctx)
    let upper = try options.int("upper_frequency_limit", ctx), lower = try options.int("lower_frequency_limit", ctx)
    let channels = try options.int("filterbank_channel_count", ctx), coefficients = try options.int("dct_coefficient_count", ctx)
    let x = try ctx.input(0), rate = try ctx.input(1), y = try ctx.output(0)
    try ctx.requireType(input: 0, .float32)
    try ctx.requireType(input: 1, .int32)
    guard y.type == .float32 else { throw ctx.invalid("output type \(y.type) must be float32") }
    guard x.rank == 3 else { throw ctx.invalid("the spectrogram must be [channels, frames, bins], has shape \(x.shape)") }
    guard rate.elementCount == 1 else { throw ctx.invalid("the sample rate must be a single value, has shape \(rate.shape)") }
    guard coefficients >= 1 else { throw ctx.invalid("dct_coefficient_count \(coefficients) must be positive") }
    guard (1...(1 << 16)).contains(channels) else { throw ctx.invalid("filterbank_channel_count \(channels) must be in 1...65536") }
    let audioChannels = x.shape[0], frames = x.shape[1], bins = x.shape[2]
    try ctx.setOutputShape(0, [audioChannels, frames, coefficients])
    ctx.requestScratch(bytes: channels * MemoryLayout<Double>.stride)
    let xi = x.index, ri = rate.index, yi = y.index, fail = ctx.failure
    func filterbank(_ sampleRate: Int32) throws(InterpreterError) -> Mfcc {
        guard let mfcc = Mfcc(bins: bins, sampleRate: Double(sampleRate), lowerLimit: Double(lower), upperLimit: Double(upper),
                              channels: channels, coefficients: coefficients) else {
            throw fail("no mel filterbank for \(bins) bins at \(sampleRate) Hz between \(lower) and \(upper) Hz with \(channels) channels and \(coefficients) coefficients")
        }
        return mfcc
    }
    // The filterbank depends on the sample rate: built once when it is a constant.
    var fixed: Mfcc?
    if let value = rate.constantValues(as: Int32.self)?.first { fixed = try filterbank(value) }
    let prebuilt = fixed
    return { c throws(InterpreterError) in
        let mfcc: Mfcc
        if let prebuilt { mfcc = prebuilt } else { mfcc = try filterbank(c.data(ri, as: Int32.self)[0]) }
        let input = c.data(xi, as: Float.self), output = c.data(yi, as: Float.self)
        for f in 0..<(audioChannels * frames) {
            mfcc.run(frame: input + f * bins, bins: bins, output: output + f * coefficients,
                     bands: c.scratch.assumingMemoryBound(to: Double.self))
        }
    }
}
