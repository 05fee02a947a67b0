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
    public static func reference(_ params: QuantizedConvParams, _ o: ConvOperands<Int16, Int8, Int64, Int16>) {
        forEachQuantizedConvSum(params.geometry, o, product: { w, x in Int64(w) &* Int64(x) }) { index, oc, sum in
            var acc = sum
            if let bias = o.bias { acc &+= bias[oc] }
            let scaled = params.outputMultipliers[oc].apply(acc) &+ params.outputOffset
            o.output[index] = Int16(clampedQuantized: params.activation.clamp(scaled))
        }
    }
}
