extension Concatenation.Quantized {
    /// Quantised CONCATENATION whose inputs may have their own scales and zero points, as TFLite's
    /// `ConcatenationWithScaling`: an input quantised like the output is copied, any other input is
    /// requantised in float, `round(q * s + b) + outputZeroPoint` with `s = inputScale / outputScale`
    /// and `b = -inputZeroPoint * s`, then clamped.
    ///
    /// - Parameters:
    ///   - inputs: the inputs' storage, in order.
    ///   - quantizations: one per input.
    ///   - axisSizes: each input's extent along the concatenation axis.
    ///   - outerCount: the product of the extents before the axis.
    ///   - innerCount: the product of the extents after the axis.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    public static func reference<T: QuantizedElement>(
        inputs: UnsafeBufferPointer<UnsafePointer<T>>, quantizations: [AffineQuantization], axisSizes: [Int],
        outerCount: Int, innerCount: Int,
        output: UnsafeMutablePointer<T>, outputQuantization: AffineQuantization
    ) {
        let inverseOutputScale = 1 / outputQuantization.scale
        var o = output
        for outer in 0..<outerCount {
            for (k, input) in inputs.enumerated() {
                let size = axisSizes[k] * innerCount
                let source = input + outer * size
                let q = quantizations[k]
                if q == outputQuantization {
                    o.update(from: source, count: size)
                } else {
                    let scale = q.scale * inverseOutputScale
                    let bias = Float(-q.zeroPoint) * scale
                    for j in 0..<size {
                        let rounded = (Float(source[j]) * scale + bias).rounded(.toNearestOrAwayFromZero)
                        o[j] = T(saturatingQuantized: int32LikeX86(rounded) &+ outputQuantization.zeroPoint)
                    }
                }
                o += size
            }
        }
    }
}
