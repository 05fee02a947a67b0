extension DepthwiseConv2D.Hybrid {
    /// Hybrid DEPTHWISE_CONV_2D with per-channel int8 weights, as TFLite's reference
    /// `DepthwiseConvHybridPerChannel`: the int32 sum converted to float and multiplied by
    /// `filterScale[c] * batchScale` (that product first), then the float bias and the clamp.
    ///
    /// - Parameters:
    ///   - filter: `[1, kernelHeight, kernelWidth, inputChannels * depthMultiplier]`.
    ///   - scratch: `hybridScratchCount(batches: inputShape.batch, batchSize:)` int8 values (one
    ///     batch is `height * width * channels` inputs): the quantised input and its scales.
    public static func reference(_ params: HybridConvParams, depthMultiplier: Int, _ o: ConvOperands<Float, Int8, Float, Float>,
                                 scratch: UnsafeMutablePointer<Int8>) {
        let scales = o.quantizeInputBatches(asymmetric: params.asymmetricInputs, into: scratch)
        let g = params.geometry
        let inputShape = o.inputShape, filterShape = o.filterShape
        let inputDepth = inputShape.channels, outputDepth = o.outputShape.channels
        o.outputShape.forEachElement { b, oy, ox, oc, index in
            let ic = oc / depthMultiplier, offset = scales[b].offset
            var acc: Int32 = 0
            g.forEachTap(y: oy, x: ox, filter: filterShape, input: inputShape) { ky, kx, iy, ix in
                let x = Int32(scratch[((b * inputShape.height + iy) * inputShape.width + ix) * inputDepth + ic])
                acc &+= Int32(o.filter[(ky * filterShape.width + kx) * outputDepth + oc]) &* (x &- offset)
            }
            var value = Float(acc)
            value *= params.filterScales[oc] * scales[b].scale
            if let bias = o.bias { value += bias[oc] }
            o.output[index] = params.activation.clamp(value)
        }
    }
}
