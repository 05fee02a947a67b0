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
    public static func reference<T: QuantizedElement>(_ params: QuantizedConvParams, _ o: ConvOperands<T, T, Int32, T>) {
        forEachQuantizedConvSum(params.geometry, o,
                                product: { w, x in (Int32(w) &+ params.filterOffset) &* (Int32(x) &+ params.inputOffset) }) { index, oc, sum in
            o.output[index] = params.output(sum, channel: oc, bias: o.bias)
        }
    }
}
