import Kernels

// CAST and QUANTIZE with packed int4 on one side, as LiteRT 2.3 runs them (cast.cc
// castInt4ToFloat and castFloatToInt4, quantize.cc AffineQuantizeToInt4): INT4 to FLOAT32, and
// FLOAT32 to INT4 by conversion or by per-tensor affine quantisation, clamped to -8...7.

/// CAST with INT4 on either side (only to or from FLOAT32, as in LiteRT); nil when neither is.
func prepareCastInt4(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel? {
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

/// QUANTIZE of FLOAT32 into INT4 with one scale and zero point (LiteRT has no per-channel
/// int4 QUANTIZE): round(x / scale) + zero point, clamped to -8...7.
func prepareQuantizeToInt4(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
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

/// Packs the int4 values `value(0) ..< value(count)` two to a byte, the even-indexed one in the
/// low nibble, as LiteRT lays int4 tensors out; an odd count leaves the last high nibble 0.
func packInt4(count: Int, into packed: UnsafeMutablePointer<UInt8>, _ value: (Int) -> Int8) {
    for j in 0..<(count >> 1) {
        packed[j] = UInt8(bitPattern: value(2 &* j)) & 0x0F | UInt8(bitPattern: value(2 &* j &+ 1)) << 4
    }
    if count & 1 == 1 { packed[count >> 1] = UInt8(bitPattern: value(count - 1)) & 0x0F }
}
