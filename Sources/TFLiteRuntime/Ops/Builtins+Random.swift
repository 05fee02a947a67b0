import Kernels

/// RANDOM_UNIFORM, RANDOM_STANDARD_NORMAL and MULTINOMIAL. Each node owns a Philox stream,
/// seeded when the node is prepared (every allocation restarts it, as in LiteRT) and advanced
/// by every invoke. With a seed pair other than (0, 0) the numbers are LiteRT's, bit for bit
/// for uniform draws and class indices; normal draws go through the platform's sinf, cosf and
/// logf, so they agree with LiteRT's to the last bit only where the C libraries do. A (0, 0)
/// pair, as in LiteRT, means a fresh seed from the system's random source at each prepare.
/// LiteRT keeps each seed in a C `int`: the schema's 64-bit seeds are cut to their low 32 bits
/// and sign-extended before they reach the generator, and so they are here.
/// None of these may be folded at prepare time: their outputs differ at every call.
extension OpRegistry {
    mutating func registerRandomOps() {
        register(.randomUniform, types: [.int32], outputTypes: .checkedByOp, foldable: false) { ctx throws(InterpreterError) in
            try prepareRandom(&ctx, RandomDistributions.uniform)
        }
        register(.randomStandardNormal, types: [.int32], outputTypes: .checkedByOp, foldable: false) { ctx throws(InterpreterError) in
            try prepareRandom(&ctx, RandomDistributions.standardNormal)
        }
        register(.multinomial, types: [.float32], outputTypes: .checkedByOp, foldable: false, prepareMultinomial)
    }
}

/// A node's random stream, kept between invocations.
private final class RandomStream {
    var rng: Philox

    init(_ options: Schema.BuiltinOptions?) {
        var seed = UInt64(0), seed2 = UInt64(0)
        if case .randomOptions(let o)? = options {
            seed = UInt64(bitPattern: Int64(Int32(truncatingIfNeeded: o.seed)))
            seed2 = UInt64(bitPattern: Int64(Int32(truncatingIfNeeded: o.seed2)))
        }
        if seed == 0 && seed2 == 0 {
            var system = SystemRandomNumberGenerator()
            seed = system.next()
            seed2 = system.next()
        }
        rng = Philox(seed: seed, seed2: seed2)
    }
}

private func prepareRandom(_ ctx: inout PrepareContext,
                           _ draw: @escaping (inout Philox, UnsafeMutablePointer<Float>, Int) -> Void) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let shapeInput = try ctx.input(0), y = try ctx.output(0)
    try ctx.requireType(input: 0, .int32)
    guard shapeInput.rank == 1 else { throw ctx.invalid("the shape must be a vector, is \(shapeInput.shape)") }
    guard y.type == .float32 else { throw ctx.unsupported("output type \(y.type); LiteRT draws float32") }
    let stream = RandomStream(ctx.options), si = shapeInput.index, yi = y.index, rank = shapeInput.shape[0], fail = ctx.failure
    if shapeInput.isConstant {
        let shape = try ctx.constantIntegers(input: 0)
        guard shape.allSatisfy({ $0 >= 0 }) else { throw ctx.invalid("shape \(shape) has a negative dimension") }
        try ctx.setOutputShape(0, shape)
        let count = Shape.elementCount(shape)
        return { c in draw(&stream.rng, c.data(yi, as: Float.self), count) }
    }
    try ctx.setOutputDynamic(0)
    return { c throws(InterpreterError) in
        let shape = (0..<rank).map { Int(c.data(si, as: Int32.self)[$0]) }
        guard shape.allSatisfy({ $0 >= 0 }) else { throw fail("shape \(shape) has a negative dimension") }
        let out = try c.resize(yi, to: shape)
        draw(&stream.rng, out.assumingMemoryBound(to: Float.self), Shape.elementCount(shape))
    }
}

private func prepareMultinomial(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let logits = try ctx.input(0), samplesInput = try ctx.input(1), y = try ctx.output(0)
    try ctx.requireType(input: 0, .float32)
    try ctx.requireType(input: 1, .int32)
    guard logits.rank == 2, logits.shape[1] > 0 else { throw ctx.invalid("logits must be [batch, classes] with classes > 0, are \(logits.shape)") }
    guard samplesInput.elementCount == 1, samplesInput.rank == 0 else {
        throw ctx.invalid("the sample count must be a scalar, has shape \(samplesInput.shape)")
    }
    let stream = RandomStream(ctx.options), batch = logits.shape[0], classes = logits.shape[1]
    let li = logits.index, ni = samplesInput.index, yi = y.index, fail = ctx.failure
    var staticSamples: Int?
    if samplesInput.isConstant {
        let n = try ctx.constantIntegers(input: 1)[0]
        guard n >= 0 else { throw ctx.invalid("sample count \(n) is negative") }
        try ctx.setOutputShape(0, [batch, n])
        staticSamples = n
    } else {
        try ctx.setOutputDynamic(0)
    }
    func kernel<Index: FixedWidthInteger>(_: Index.Type) -> NodeKernel {
        { c throws(InterpreterError) in
            var samples = staticSamples ?? 0, out = c.raw(yi)
            if staticSamples == nil {
                samples = Int(c.data(ni, as: Int32.self)[0])
                guard samples >= 0 else { throw fail("sample count \(samples) is negative") }
                out = try c.resize(yi, to: [batch, samples])
            }
            RandomDistributions.multinomial(&stream.rng, logits: c.data(li, as: Float.self), batch: batch, classes: classes,
                                            samples: samples, output: out.assumingMemoryBound(to: Index.self))
        }
    }
    switch y.type {
    case .int32: return kernel(Int32.self)
    case .int64: return kernel(Int64.self)
    case let t: throw ctx.unsupported("output type \(t); MULTINOMIAL writes int32 or int64")
    }
}
