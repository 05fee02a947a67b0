extension Conv2D.Int16x8 {
    /// Reference CONV_2D with int16 activations and int8 per-channel weights ("16x8"), as TFLite's
    /// reference `ConvPerChannel` for int16 computes it: a 64-bit accumulator, a 64-bit bias, and
    /// the 64-bit `MultiplyByQuantizedMultiplier`. Activation zero points are 0 in this scheme, so
    /// only the output offset is applied.
    ///
    /// - Parameters:
    ///   - params: `inputOffset` and `filterOffset` must be 0 (prepare checks the zero points).
    ///   - bias: one int64 per output channel, or nil. Models whose bias is int32 are widened once
    ///     at prepare.
    public static func reference(
        _ params: QuantizedConvParams,
        input: UnsafePointer<Int16>, inputShape: NHWC,
        filter: UnsafePointer<Int8>, filterShape: NHWC,
        bias: UnsafePointer<Int64>?,
        output: UnsafeMutablePointer<Int16>, outputShape: NHWC
    ) {
        forEachQuantizedConvSum(params.geometry, input: input, inputShape: inputShape, filter: filter, filterShape: filterShape,
                                outputShape: outputShape, product: { w, x in Int64(w) &* Int64(x) }) { o, oc, sum in
            var acc = sum
            if let bias { acc &+= bias[oc] }
            let scaled = params.outputMultipliers[oc].apply(acc) &+ params.outputOffset
            output[o] = Int16(clampedQuantized: params.activation.clamp(scaled))
        }
    }
}
