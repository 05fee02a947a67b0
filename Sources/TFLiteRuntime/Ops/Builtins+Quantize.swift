import Kernels

/// QUANTIZE (float -> int8/uint8/int16, and requantising between integer types, int32 included) and
/// DEQUANTIZE (int8/uint8/int16 per tensor or per axis, and float16 -> float32), and FAKE_QUANT
/// (float rounded to a quantisation grid).
extension OpRegistry {
    mutating func registerQuantizeOps() {
        register(.quantize, types: [.float32, .int8, .uInt8, .int16, .int32], outputTypes: .checkedByOp, prepareQuantize)
        register(.dequantize, types: [.int8, .uInt8, .int16, .int4, .float16], outputTypes: .checkedByOp, prepareDequantize)
        register(.fakeQuant, types: [.float32], prepareFakeQuant)
    }
}

/// LiteRT's kernel takes the activation form only (narrow_range is meant for weights, folded
/// away by the converter) and assumes min <= 0 <= max, min < max; those are checked here.
private func prepareFakeQuant(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    guard case .fakeQuantOptions(let o)? = ctx.options else { throw ctx.invalid("missing FakeQuantOptions") }
    try ctx.requireType(input: 0, .float32)
    let x = try ctx.input(0), y = try ctx.output(0)
    guard y.type == .float32 else { throw ctx.invalid("output type \(y.type) must be float32") }
    guard !o.narrowRange else { throw ctx.unsupported("narrow_range (LiteRT runs only the activation form)") }
    guard o.min <= 0, o.max >= 0, o.min < o.max, o.min.isFinite, o.max.isFinite else {
        throw ctx.invalid("the range [\(o.min), \(o.max)] must be finite, hold zero and be non-empty")
    }
    guard (2...16).contains(o.numBits) else { throw ctx.invalid("num_bits \(o.numBits) must be in 2...16") }
    try ctx.setOutputShape(0, x.shape)
    let grid = FakeQuant.grid(min: o.min, max: o.max, bits: Int(o.numBits))
    let xi = x.index, yi = y.index, count = x.elementCount
    return { c in FakeQuant.run(grid, input: c.data(xi, as: Float.self), output: c.data(yi, as: Float.self), count: count) }
}

private func prepareQuantize(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    if try ctx.output(0).type == .int4 { return try prepareQuantizeToInt4(&ctx) }
    let x = try ctx.input(0), y = try ctx.output(0)
    try ctx.setOutputShape(0, x.shape)
    let qy = try ctx.affine(y, role: "output")
    let count = x.elementCount, xi = x.index, yi = y.index
    if x.type == .float32 {
        guard let kernel = affineKernel(stored: y.type, qy, toFloat: false, xi: xi, yi: yi, count: count) else {
            throw ctx.unsupported("QUANTIZE to \(y.type)")
        }
        return kernel
    }
    // Requantise: rescale from the input's parameters to the output's.
    let qx = try ctx.affine(x, role: "input")
    let multiplier = QuantizedMultiplier(Double(qx.scale) / Double(qy.scale))
    func requant<In: QuantizedElement, Out: QuantizedElement>(_: In.Type, _: Out.Type) -> NodeKernel {
        if let table = ByteRequantizationTable<In, Out>(inputZeroPoint: qx.zeroPoint, outputZeroPoint: qy.zeroPoint,
                                                        multiplier: multiplier) {
            return { c in table.apply(input: c.data(xi, as: In.self), output: c.data(yi, as: Out.self), count: count) }
        }
        return { c in
            Quantize.Quantized.requantize(input: c.data(xi, as: In.self), inputZeroPoint: qx.zeroPoint, output: c.data(yi, as: Out.self),
                                          outputZeroPoint: qy.zeroPoint, multiplier: multiplier, count: count)
        }
    }
    switch (x.type, y.type) {
    case (.uInt8, .int8): return requant(UInt8.self, Int8.self)
    case (.int8, .uInt8): return requant(Int8.self, UInt8.self)
    case (.int8, .int8): return requant(Int8.self, Int8.self)
    case (.uInt8, .uInt8): return requant(UInt8.self, UInt8.self)
    case (.int16, .int16): return requant(Int16.self, Int16.self)
    case (.int16, .int8): return requant(Int16.self, Int8.self)
    case (.int8, .int16): return requant(Int8.self, Int16.self)
    // The int32 forms rescale accumulators between layers, as TFLite Micro's seanet tests do.
    case (.int16, .int32): return requant(Int16.self, Int32.self)
    case (.int32, .int16): return requant(Int32.self, Int16.self)
    case (.int32, .int8): return requant(Int32.self, Int8.self)
    case let (a, b): throw ctx.unsupported("QUANTIZE from \(a) to \(b)")
    }
}

private func prepareDequantize(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    guard y.type == .float32 else { throw ctx.unsupported("DEQUANTIZE to \(y.type)") }
    try ctx.setOutputShape(0, x.shape)
    let count = x.elementCount, xi = x.index, yi = y.index
    if x.type == .float16 {
        return { c in Dequantize.float16(input: c.data(xi, as: UInt16.self), output: c.data(yi, as: Float.self), count: count) }
    }
    guard let q = x.quantization else { throw ctx.invalid("input has no quantization parameters") }
    // Int4 values are widened to int8 and dequantised as such: a constant's (weights; the node
    // is then folded into a float constant like any DEQUANTIZE of weights) once, here, and one
    // the graph computes (rows a GATHER took from an int4 table, say) at every run, into this
    // buffer.
    let int4Values = x.type == .int4 ? AlignedBuffer(byteCount: count) : nil
    let int4Constant = x.type == .int4 ? x.constantData : nil
    if let int4Values, let int4Constant {
        PackedInt4.unpack(int4Constant.assumingMemoryBound(to: UInt8.self), from: 0, count: count,
                          into: int4Values.pointer.assumingMemoryBound(to: Int8.self))
    }
    func int4Kernel(_ body: @escaping (UnsafePointer<Int8>, UnsafeMutablePointer<Float>) -> Void) -> NodeKernel {
        { c in
            let values = int4Values!.pointer.assumingMemoryBound(to: Int8.self)
            if int4Constant == nil { PackedInt4.unpack(c.data(xi, as: UInt8.self), from: 0, count: count, into: values) }
            body(values, c.data(yi, as: Float.self))
        }
    }
    if q.isPerAxis {
        guard q.quantizedDimension < x.rank, q.scales.count == x.shape[q.quantizedDimension] else {
            throw ctx.invalid("\(q.scales.count) scales along axis \(q.quantizedDimension) of shape \(x.shape)")
        }
        let scales = q.scales, zeros = q.zeroPoints.map { Int32(truncatingIfNeeded: $0) }
        let axis = q.quantizedDimension, shape = x.shape
        func kernel<T: QuantizedElement>(_: T.Type) -> NodeKernel {
            { c in Dequantize.Quantized.perAxisToFloat(scales: scales, zeroPoints: zeros, axis: axis, shape: shape, input: c.data(xi, as: T.self), output: c.data(yi, as: Float.self)) }
        }
        switch x.type {
        case .int8: return kernel(Int8.self)
        case .int16: return kernel(Int16.self)
        case .int4:
            return int4Kernel { Dequantize.Quantized.perAxisToFloat(scales: scales, zeroPoints: zeros, axis: axis, shape: shape, input: $0, output: $1) }
        case let t: throw ctx.unsupported("per-axis DEQUANTIZE of \(t)")
        }
    }
    let qx = try ctx.affine(x, role: "input")
    if x.type == .int4 { return int4Kernel { Dequantize.Quantized.toFloat(qx, input: $0, output: $1, count: count) } }
    guard let kernel = affineKernel(stored: x.type, qx, toFloat: true, xi: xi, yi: yi, count: count) else {
        throw ctx.unsupported("DEQUANTIZE of \(x.type)")
    }
    return kernel
}

/// QUANTIZE from float32 or (`toFloat`) DEQUANTIZE to float32 with one scale and zero point,
/// the integer side `stored` as int8, uint8 or int16; nil for another type.
private func affineKernel(stored: DataType, _ q: AffineQuantization, toFloat: Bool, xi: Int, yi: Int, count: Int) -> NodeKernel? {
    func kernel<T: QuantizedElement>(_: T.Type) -> NodeKernel {
        if toFloat { return { c in Dequantize.Quantized.toFloat(q, input: c.data(xi, as: T.self), output: c.data(yi, as: Float.self), count: count) } }
        return { c in Quantize.Quantized.fromFloat(q, input: c.data(xi, as: Float.self), output: c.data(yi, as: T.self), count: count) }
    }
    switch stored {
    case .int8: return kernel(Int8.self)
    case .uInt8: return kernel(UInt8.self)
    case .int16: return kernel(Int16.self)
    default: return nil
    }
}

/// QUANTIZE of FLOAT32 into INT4 with one scale and zero point (LiteRT has no per-channel
/// int4 QUANTIZE): round(x / scale) + zero point, clamped to -8...7, as LiteRT 2.3's quantize.cc
/// AffineQuantizeToInt4 does.
private func prepareQuantizeToInt4(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    let x = try ctx.input(0), y = try ctx.output(0)
    guard x.type == .float32 else { throw ctx.unsupported("QUANTIZE of \(x.type) to INT4") }
    guard (y.quantization?.scales.count ?? 0) == 1 else { throw ctx.unsupported("QUANTIZE to INT4 with more than one scale") }
    let qy = try ctx.affine(y, role: "output")
    try ctx.setOutputShape(0, x.shape)
    let xi = x.index, yi = y.index, count = x.elementCount
    return { c in
        let input = c.data(xi, as: Float.self)
        packInt4(count: count, into: c.data(yi, as: UInt8.self)) { i in
            let rounded = (input[i] / qy.scale).rounded(.toNearestOrAwayFromZero)
            return Int8(Swift.min(Swift.max(int32LikeX86(rounded) &+ qy.zeroPoint, -8), 7))
        }
    }
}
