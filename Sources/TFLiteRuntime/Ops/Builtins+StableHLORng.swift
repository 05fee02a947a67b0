import Kernels

extension OpRegistry {
    mutating func registerStableHLORngOps() {
        register(.stablehloRngBitGenerator, types: [.uInt64], outputTypes: .checkedByOp, foldable: false, prepareRngBitGenerator)
    }
}

/// STABLEHLO_RNG_BIT_GENERATOR: a uint64 state in, the next state and a tensor of random bits
/// out (int32, int64, uint32 or uint64, its shape as the model declares it).
private func prepareRngBitGenerator(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 2...2)
    guard case .stablehloRngBitGeneratorOptions(let o)? = ctx.options2 else { throw ctx.invalid("missing StablehloRngBitGeneratorOptions") }
    let state = try ctx.input(0), key = try ctx.output(0), bits = try ctx.output(1)
    guard state.type == .uInt64, state.rank == 1 else { throw ctx.invalid("the state must be a uint64 vector, is \(state.type) \(state.shape)") }
    guard key.type == .uInt64 else { throw ctx.invalid("output 0 (the new state) must be uint64, is \(key.type)") }
    let algorithm: RngBitGenerator.Algorithm
    switch o.algorithm {
    case .threefry:
        algorithm = .threefry
        guard state.shape == [2] else { throw ctx.invalid("THREEFRY takes a state of 2 uint64 values, has \(state.shape)") }
    case .philox, .default:
        algorithm = .philox
        guard state.shape == [2] || state.shape == [3] else {
            throw ctx.invalid("\(o.algorithm) takes a state of 2 or 3 uint64 values, has \(state.shape)")
        }
    }
    let wordsPerElement: Int
    switch bits.type {
    case .int32, .uInt32: wordsPerElement = 1
    case .int64, .uInt64: wordsPerElement = 2
    default: throw ctx.invalid("output 1 must be int32, int64, uint32 or uint64, is \(bits.type)")
    }
    // The output's shape is the model's: nothing else determines it.
    try ctx.setOutputShape(0, state.shape)
    try ctx.setOutputShape(1, bits.shape)
    let words = bits.elementCount * wordsPerElement, stateWords = 2 * state.elementCount
    let si = state.index, ki = key.index, bi = bits.index
    return { c in
        RngBitGenerator.generate(algorithm, state: c.data(si, as: UInt32.self), stateWords: stateWords,
                                 output: c.data(bi, as: UInt32.self), wordCount: words, newState: c.data(ki, as: UInt32.self))
    }
}
