import Kernels

/// CAST between the numeric and boolean element types, and BITCAST, which keeps the bytes.
extension OpRegistry {
    mutating func registerCastOps() {
        let all: [DataType] = [.float32, .float16, .bFloat16, .float64, .int8, .uInt8, .int16, .uInt16, .int32, .uInt32, .int64, .uInt64, .bool]
        register(.cast, types: all + [.int4], outputTypes: .checkedByOp, prepareCast)
        register(.bitcast, types: all.filter { $0 != .bool }, outputTypes: .checkedByOp, prepareBitcast)
    }
}

private func prepareCast(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    if let int4Kernel = try prepareCastInt4(&ctx) { return int4Kernel }
    let x = try ctx.input(0), y = try ctx.output(0)
    guard let from = x.type.castType else { throw ctx.unsupported("cast from \(x.type)") }
    guard let to = y.type.castType else { throw ctx.unsupported("cast to \(y.type)") }
    try ctx.setOutputShape(0, x.shape)
    let xi = x.index, yi = y.index, count = x.elementCount
    if to == .float32, from == .uInt8 || from == .int8, let kernels = ctx.kernelChoice.optimizedKernels {
        let convert = kernels.bytesToFloat, signed = from == .int8
        ctx.kernelName = "cast.\(x.type.kernelNameTag).lanes/\(kernels.instructionSet)"
        return { c in convert(signed, c.raw(xi), c.data(yi, as: Float.self), count, c.threads) }
    }
    return { c in Cast.apply(input: c.raw(xi), from: from, output: c.raw(yi), to: to, count: count) }
}

/// BITCAST reinterprets the bytes as the output type. Between types of different sizes the
/// last dimension carries the ratio: a wider input gains a trailing dimension of (input size /
/// output size); a narrower one must end in a dimension of (output size / input size), which
/// it loses.
private func prepareBitcast(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    guard let from = x.type.byteSize, x.type != .bool, let to = y.type.byteSize, y.type != .bool else {
        throw ctx.unsupported("bitcast from \(x.type) to \(y.type)")
    }
    var shape = x.shape
    if from > to {
        shape.append(from / to)
    } else if from < to {
        guard shape.last == to / from else {
            throw ctx.invalid("a \(x.type) input bitcast to \(y.type) must end in a dimension of \(to / from), has shape \(x.shape)")
        }
        shape.removeLast()
    }
    try ctx.setOutputShape(0, shape)
    let xi = x.index, yi = y.index, bytes = x.elementCount * from
    return { c in c.raw(yi).copyMemory(from: c.raw(xi), byteCount: bytes) }
}

/// CAST with INT4 on either side (only to or from FLOAT32, as LiteRT 2.3's cast.cc runs it in
/// castInt4ToFloat and castFloatToInt4); nil when neither is.
private func prepareCastInt4(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel? {
    let x = try ctx.input(0), y = try ctx.output(0)
    guard x.type == .int4 || y.type == .int4 else { return nil }
    try ctx.setOutputShape(0, x.shape)
    let xi = x.index, yi = y.index, count = x.elementCount
    switch (x.type, y.type) {
    case (.int4, .float32):
        return { c in
            let packed = c.data(xi, as: UInt8.self), output = c.data(yi, as: Float.self)
            for i in 0..<count { output[i] = Float(PackedInt4.value(packed, at: i)) }
        }
    case (.float32, .int4):
        return { c in
            let input = c.data(xi, as: Float.self)
            // LiteRT clamps with std::min then std::max, which turns NaN into 7, and truncates.
            packInt4(count: count, into: c.data(yi, as: UInt8.self)) { i in
                input[i].isNaN ? 7 : Int8(Swift.min(Swift.max(input[i], -8), 7).rounded(.towardZero))
            }
        }
    default:
        throw ctx.unsupported("cast from \(x.type) to \(y.type)")
    }
}

/// Packs the int4 values `value(0) ..< value(count)` two to a byte, the even-indexed one in the
/// low nibble, as LiteRT lays int4 tensors out; an odd count leaves the last high nibble 0.
func packInt4(count: Int, into packed: UnsafeMutablePointer<UInt8>, _ value: (Int) -> Int8) {
    for j in 0..<(count >> 1) {
        packed[j] = UInt8(bitPattern: value(2 &* j)) & 0x0F | UInt8(bitPattern: value(2 &* j &+ 1)) << 4
    }
    if count & 1 == 1 { packed[count >> 1] = UInt8(bitPattern: value(count - 1)) & 0x0F }
}
