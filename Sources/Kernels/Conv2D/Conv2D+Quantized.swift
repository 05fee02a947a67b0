extension Conv2D.Quantized {
    /// Reference quantised CONV_2D for int8 (per-channel symmetric weights) and uint8 (per-tensor
    /// asymmetric weights), as TFLite's reference `ConvPerChannel` / uint8 `Conv` compute it:
    /// `acc = sum (filter + filterOffset) * (input + inputOffset) + bias`, rescaled per output
    /// channel, offset by the output zero point and clamped.
    ///
    /// Grouped convolution is supported: the group count is `input.channels / filter.channels`.
    ///
    /// - Parameters:
    ///   - input: NHWC activations.
    ///   - filter: `[outputChannels, kernelHeight, kernelWidth, inputChannels / groups]`.
    ///   - bias: one int32 per output channel, or nil.
    ///   - output: NHWC; prepare has checked every extent against the geometry.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    public static func reference<T: QuantizedElement>(
        _ params: QuantizedConvParams,
        input: UnsafePointer<T>, inputShape: NHWC,
        filter: UnsafePointer<T>, filterShape: NHWC,
        bias: UnsafePointer<Int32>?,
        output: UnsafeMutablePointer<T>, outputShape: NHWC
    ) {
        forEachQuantizedConvSum(params.geometry, input: input, inputShape: inputShape, filter: filter, filterShape: filterShape,
                                outputShape: outputShape,
                                product: { w, x in (Int32(w) &+ params.filterOffset) &* (Int32(x) &+ params.inputOffset) }) { o, oc, sum in
            var acc = sum
            if let bias { acc &+= bias[oc] }
            acc = params.outputMultipliers[oc].apply(acc) &+ params.outputOffset
            output[o] = T(clampedQuantized: params.activation.clamp(acc))
        }
    }
}
