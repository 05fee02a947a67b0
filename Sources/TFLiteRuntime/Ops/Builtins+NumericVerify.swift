import FlatBuffers
import Kernels

/// `NumericVerify`, the custom op the converter's debug mode inserts after a quantised tensor:
/// its output is the dequantised input minus the float reference (input 1). With
/// `log_if_failed` and a tolerance of at least 0.1 the invocation fails when any difference
/// exceeds tolerance x scale, as in LiteRT; otherwise LiteRT only logs statistics, which we
/// leave to the caller (the differences are the output).
extension OpRegistry {
    mutating func registerNumericVerifyOps() {
        register(custom: "NumericVerify", types: [.int8, .uInt8, .int16, .float16], foldable: false, prepareNumericVerify)
    }
}

private func prepareNumericVerify(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    var tolerance: Float = 0, failOnMismatch = false
    if let bytes = ctx.customOptions, !bytes.isEmpty {
        do {
            let map = try FlexBuffer.root(of: bytes).map
            if let v = try map["tolerance"], !v.isNull { tolerance = try v.asFloat }
            if let v = try map["log_if_failed"], !v.isNull { failOnMismatch = try v.asBool }
        } catch {
            throw ctx.invalid("bad custom options: \(error)")
        }
    }
    let x = try ctx.input(0), reference = try ctx.input(1), y = try ctx.output(0)
    let type = try ctx.requireType(input: 0, .int8, .uInt8, .int16, .float16)
    try ctx.requireType(input: 1, .float32)
    guard reference.shape == x.shape else { throw ctx.invalid("the reference has shape \(reference.shape), the input \(x.shape)") }
    guard y.type == .float32 else { throw ctx.invalid("output type \(y.type) must be float32") }
    try ctx.setOutputShape(0, x.shape)
    let q = type == .float16 ? AffineQuantization(scale: 1, zeroPoint: 0) : try ctx.affine(x, role: "input")
    let limit: Float? = failOnMismatch && tolerance >= 0.1 ? tolerance * q.scale : nil
    let xi = x.index, ri = reference.index, yi = y.index, count = x.elementCount, fail = ctx.failure
    return { c throws(InterpreterError) in
        let out = c.data(yi, as: Float.self)
        switch type {
        case .int8: Dequantize.Quantized.toFloat(q, input: c.data(xi, as: Int8.self), output: out, count: count)
        case .uInt8: Dequantize.Quantized.toFloat(q, input: c.data(xi, as: UInt8.self), output: out, count: count)
        case .int16: Dequantize.Quantized.toFloat(q, input: c.data(xi, as: Int16.self), output: out, count: count)
        default: Dequantize.float16(input: c.data(xi, as: UInt16.self), output: out, count: count)
        }
        let r = c.data(ri, as: Float.self)
        for i in 0..<count {
            out[i] -= r[i]
            if let limit, abs(out[i]) > limit {
                throw fail("element \(i): the reference \(r[i]) and the dequantised input differ by \(abs(out[i])), more than \(limit) (tolerance x scale)")
            }
        }
    }
}
