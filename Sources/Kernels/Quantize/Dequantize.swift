/// DEQUANTIZE of constants and activations into float32.
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

    /// Affine int8 -> float: `scale * (q - zeroPoint)`, evaluated in double and rounded once,
    /// as TFLite's reference kernel.
    public static func affine(input: UnsafePointer<Int8>, scale: Float, zeroPoint: Int32,
                              output: UnsafeMutablePointer<Float>, count: Int) {
        affineAny(input, scale, zeroPoint, output, count)
    }

    /// Affine uint8 -> float.
    public static func affine(input: UnsafePointer<UInt8>, scale: Float, zeroPoint: Int32,
                              output: UnsafeMutablePointer<Float>, count: Int) {
        affineAny(input, scale, zeroPoint, output, count)
    }

    /// Affine int16 -> float.
    public static func affine(input: UnsafePointer<Int16>, scale: Float, zeroPoint: Int32,
                              output: UnsafeMutablePointer<Float>, count: Int) {
        affineAny(input, scale, zeroPoint, output, count)
    }

    @inline(__always)
    static func affineAny<Q: FixedWidthInteger>(_ input: UnsafePointer<Q>, _ scale: Float, _ zeroPoint: Int32,
                                                _ output: UnsafeMutablePointer<Float>, _ count: Int) {
        let s = Double(scale), z = Int64(zeroPoint)
        for i in 0..<count { output[i] = Float(s * Double(Int64(input[i]) - z)) }
    }

    /// Per-channel int8 -> float along `axis` of `shape`: channel `c` uses `scales[c]` and
    /// `zeroPoints[c]` (both `shape[axis]` long).
    public static func perChannel(input: UnsafePointer<Int8>, shape: [Int], axis: Int,
                                  scales: [Float], zeroPoints: [Int32], output: UnsafeMutablePointer<Float>) {
        let outer = Shape.product(shape, 0..<axis), channels = shape[axis]
        let inner = Shape.product(shape, (axis + 1)..<shape.count)
        for o in 0..<outer {
            for c in 0..<channels {
                let s = Double(scales[c]), z = Int64(zeroPoints[c])
                let base = (o * channels + c) * inner
                for i in 0..<inner { output[base + i] = Float(s * Double(Int64(input[base + i]) - z)) }
            }
        }
    }
}
