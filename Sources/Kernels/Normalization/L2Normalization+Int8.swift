extension L2Normalization.Quantized {
    /// Reference int8 L2_NORMALIZATION over the last axis, as TFLite's integer kernel: the sum of
    /// squares of `q - inputZeroPoint`, its inverse square root as a fixed-point multiplier, and
    /// each element rescaled to the fixed output quantisation (scale 1/128, zero point 0).
    ///
    /// - Parameters:
    ///   - rows: the product of all axes but the last.
    ///   - depth: the extent of the last axis.
    public static func reference(inputZeroPoint: Int32, input: UnsafePointer<Int8>,
                                 output: UnsafeMutablePointer<Int8>, rows: Int, depth: Int) {
        let outputScaleBits = 7
        for r in 0..<rows {
            let x = input + r * depth
            var acc: Int32 = 0
            for j in 0..<depth {
                let v = Int32(x[j]) - inputZeroPoint
                acc &+= v &* v
            }
            let inverse = inverseSqrtQuantizedMultiplier(acc, reverseShift: -1)
            for j in 0..<depth {
                let v = Int32(x[j]) - inputZeroPoint
                let scaled = multiplyByQuantizedMultiplier(v, inverse.multiplier, inverse.shift + outputScaleBits)
                output[r * depth + j] = Int8(saturatingQuantized: scaled)
            }
        }
    }
}
