extension FullyConnected.Quantized {
    /// Reference quantised FULLY_CONNECTED for int8 and uint8, as TFLite's reference
    /// `FullyConnected` / `FullyConnectedPerChannel` compute it: for each batch row and output
    /// channel, `sum (filter + filterOffset) * (input + inputOffset) + bias`, rescaled (per channel
    /// when `params.outputMultipliers` has one entry per output channel), offset and clamped.
    ///
    /// - Parameters:
    ///   - input: `batches x inputDepth` values.
    ///   - filter: `outputDepth x inputDepth` values.
    ///   - bias: `outputDepth` int32 values, or nil.
    ///   - output: `batches x outputDepth` values.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    public static func reference<T: QuantizedElement>(
        _ params: QuantizedFullyConnectedParams,
        input: UnsafePointer<T>, batches: Int, inputDepth: Int,
        filter: UnsafePointer<T>, outputDepth: Int,
        bias: UnsafePointer<Int32>?,
        output: UnsafeMutablePointer<T>
    ) {
        let perChannel = params.outputMultipliers.count > 1
        for b in 0..<batches {
            let row = input + b * inputDepth
            for oc in 0..<outputDepth {
                let weights = filter + oc * inputDepth
                var acc: Int32 = 0
                for d in 0..<inputDepth {
                    acc &+= (Int32(weights[d]) &+ params.filterOffset) &* (Int32(row[d]) &+ params.inputOffset)
                }
                if let bias { acc &+= bias[oc] }
                acc = params.outputMultipliers[perChannel ? oc : 0].apply(acc, rounding: params.rounding) &+ params.outputOffset
                output[b * outputDepth + oc] = T(clampedQuantized: params.activation.clamp(acc))
            }
        }
    }
}
