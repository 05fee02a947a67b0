import Kernels

/// RFFT2D (float32 to complex64) and COMPLEX_ABS, REAL, IMAG (complex64 to float32).
extension OpRegistry {
    mutating func registerSignalOps() {
        register(.rfft2d, types: [.float32], outputTypes: .checkedByOp, prepareRFFT2D)
        register(.complexAbs, types: [.complex64], outputTypes: .checkedByOp) { (c) throws(InterpreterError) in try prepareComplexPart(&c, .magnitude) }
        register(.real, types: [.complex64], outputTypes: .checkedByOp) { (c) throws(InterpreterError) in try prepareComplexPart(&c, .real) }
        register(.imag, types: [.complex64], outputTypes: .checkedByOp) { (c) throws(InterpreterError) in try prepareComplexPart(&c, .imaginary) }
    }
}

private func prepareRFFT2D(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    guard x.type == .float32, y.type == .complex64 else { throw ctx.unsupported("types \(x.type) -> \(y.type); only float32 -> complex64") }
    guard x.rank >= 2 else { throw ctx.invalid("input must have rank 2 or more, has shape \(x.shape)") }
    let size = try ctx.constantIntegers(input: 1)
    // TFLite's kernel takes power-of-two sizes only; the same limit keeps models portable.
    guard size.count == 2, size.allSatisfy({ $0 > 0 && $0 & ($0 - 1) == 0 && $0 <= 1 << 16 }) else {
        throw ctx.invalid("fft_length \(size) must be two powers of two")
    }
    let fft = RFFT2D(height: size[0], width: size[1])
    let rows = x.shape[x.rank - 2], columns = x.shape[x.rank - 1]
    try ctx.setOutputShape(0, Array(x.shape.dropLast(2)) + [fft.height, fft.outputWidth])
    let (work, overflow) = fft.workCount.multipliedReportingOverflow(by: MemoryLayout<Double>.stride)
    guard !overflow else { throw ctx.invalid("fft_length \(size) is too large") }
    ctx.requestScratch(bytes: work)
    let planes = Shape.product(x.shape, 0..<x.rank - 2), xi = x.index, yi = y.index
    return { c in
        fft.run(input: c.data(xi, as: Float.self), planes: planes, rows: rows, columns: columns,
                output: c.data(yi, as: Float.self), work: c.scratch.assumingMemoryBound(to: Double.self))
    }
}

private func prepareComplexPart(_ ctx: inout PrepareContext, _ part: ComplexParts.Part) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    guard x.type == .complex64, y.type == .float32 else { throw ctx.unsupported("types \(x.type) -> \(y.type); only complex64 -> float32") }
    try ctx.setOutputShape(0, x.shape)
    let n = x.elementCount, xi = x.index, yi = y.index
    return { c in ComplexParts.run(part, input: c.data(xi, as: Float.self), count: n, output: c.data(yi, as: Float.self)) }
}
