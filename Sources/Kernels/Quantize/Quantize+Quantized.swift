extension Quantize.Quantized {
    /// QUANTIZE from float, as TFLite's reference `AffineQuantize`: `round(x / scale) + zeroPoint`
    /// (the division in float, rounding half away from zero), clamped to the storage range.
    /// Values whose quotient does not fit an int32 (and NaN) convert as on x86 (`int32LikeX86`),
    /// so results match LiteRT there too.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    @_specialize(exported: true, where T == Int16)
    public static func fromFloat<T: QuantizedElement>(_ quantization: AffineQuantization, input: UnsafePointer<Float>,
                                                      output: UnsafeMutablePointer<T>, count: Int) {
        let scale = quantization.scale
        for i in 0..<count {
            let rounded = (input[i] / scale).rounded(.toNearestOrAwayFromZero)
            output[i] = T(saturatingQuantized: int32LikeX86(rounded) &+ quantization.zeroPoint)
        }
    }
}

extension Dequantize.Quantized {
    /// DEQUANTIZE to float, as TFLite's reference `Dequantize`: `scale * (q - zeroPoint)` computed
    /// in double (TFLite keeps the scale as a double), then rounded to float.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    @_specialize(exported: true, where T == Int16)
    public static func toFloat<T: QuantizedElement>(_ quantization: AffineQuantization, input: UnsafePointer<T>,
                                                    output: UnsafeMutablePointer<Float>, count: Int) {
        let scale = Double(quantization.scale)
        for i in 0..<count {
            output[i] = Float(scale * Double(Int32(input[i]) - quantization.zeroPoint))
        }
    }

    /// DEQUANTIZE of per-axis (per-channel) quantised weights: element `i` uses the scale and zero
    /// point of its index along `axis`.
    ///
    /// - Parameters:
    ///   - shape: the tensor's shape; `scales` and `zeroPoints` have `shape[axis]` entries.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == Int16)
    public static func perAxisToFloat<T: QuantizedElement>(scales: [Float], zeroPoints: [Int32], axis: Int, shape: [Int],
                                                           input: UnsafePointer<T>, output: UnsafeMutablePointer<Float>) {
        let inner = shape[(axis + 1)...].reduce(1, *)
        let channels = shape[axis]
        let outer = shape[..<axis].reduce(1, *)
        var i = 0
        for _ in 0..<outer {
            for c in 0..<channels {
                let scale = Double(scales[c])
                let zero = zeroPoints[c]
                for _ in 0..<inner {
                    output[i] = Float(scale * Double(Int32(input[i]) - zero))
                    i += 1
                }
            }
        }
    }
}

extension Quantize.Quantized {
    /// QUANTIZE between quantised types (int8 <-> uint8, int8 <-> int16, rescaling int8 -> int8), as
    /// TFLite's reference `Requantize`: `rescale(q - inputZeroPoint) + outputZeroPoint`, clamped,
    /// with `multiplier = inputScale / outputScale`.
    @_specialize(exported: true, where In == Int8, Out == UInt8)
    @_specialize(exported: true, where In == UInt8, Out == Int8)
    @_specialize(exported: true, where In == Int8, Out == Int8)
    @_specialize(exported: true, where In == UInt8, Out == UInt8)
    public static func requantize<In: QuantizedElement, Out: QuantizedElement>(
        input: UnsafePointer<In>, inputZeroPoint: Int32,
        output: UnsafeMutablePointer<Out>, outputZeroPoint: Int32,
        multiplier: QuantizedMultiplier, count: Int
    ) {
        for i in 0..<count {
            let value = multiplier.apply(Int32(input[i]) &- inputZeroPoint) &+ outputZeroPoint
            output[i] = Out(saturatingQuantized: value)
        }
    }
}
