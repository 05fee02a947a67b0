/// DEQUANTIZE into float32: float16 here; the affine quantised types in `Dequantize.Quantized`.
public enum Dequantize {
    /// float16 -> float32 for `count` values given as binary16 bit patterns. Sixteen at a time
    /// through ``HalfPrecision/floats(fromBits:)``, which vectorises: one value at a time, with
    /// a branch per exponent class, this was a large part of preparing a model with float16
    /// weights.
    public static func float16(input: UnsafePointer<UInt16>, output: UnsafeMutablePointer<Float>, count: Int) {
        let source = UnsafeRawPointer(input), destination = UnsafeMutableRawPointer(output)
        var i = 0
        while i &+ 16 <= count {
            let h = source.loadUnaligned(fromByteOffset: i &* 2, as: SIMD16<UInt16>.self)
            destination.storeBytes(of: HalfPrecision.floats(fromBits: h), toByteOffset: i &* 4, as: SIMD16<Float>.self)
            i &+= 16
        }
        while i < count {
            output[i] = HalfPrecision.float(fromBits: input[i])
            i &+= 1
        }
    }
}
