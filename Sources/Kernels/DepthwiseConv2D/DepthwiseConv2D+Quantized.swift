extension DepthwiseConv2D.Quantized {
    /// Reference quantised DEPTHWISE_CONV_2D for int8 (per-channel weights) and uint8, as TFLite's
    /// reference `DepthwiseConvPerChannel` / uint8 `DepthwiseConv` compute it: output channel
    /// `ic * depthMultiplier + m` reads input channel `ic`.
    ///
    /// - Parameters:
    ///   - filter: `[1, kernelHeight, kernelWidth, inputChannels * depthMultiplier]`.
    ///   - bias: one int32 per output channel, or nil.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    public static func reference<T: QuantizedElement>(_ params: QuantizedConvParams, depthMultiplier: Int,
                                                      _ o: ConvOperands<T, T, Int32, T>) {
        let g = params.geometry
        let inputShape = o.inputShape, filterShape = o.filterShape
        let inputDepth = inputShape.channels
        let outputDepth = o.outputShape.channels
        o.outputShape.forEachElement { b, oy, ox, oc, index in
            let ic = oc / depthMultiplier
            var acc: Int32 = 0
            g.forEachTap(y: oy, x: ox, filter: filterShape, input: inputShape) { ky, kx, iy, ix in
                let x = Int32(o.input[((b * inputShape.height + iy) * inputShape.width + ix) * inputDepth + ic])
                let w = Int32(o.filter[(ky * filterShape.width + kx) * outputDepth + oc])
                acc &+= (w &+ params.filterOffset) &* (x &+ params.inputOffset)
            }
            o.output[index] = params.output(acc, channel: oc, bias: o.bias)
        }
    }
}
