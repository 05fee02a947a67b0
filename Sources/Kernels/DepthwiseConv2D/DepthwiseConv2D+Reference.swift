extension DepthwiseConv2D {
    /// The reference DEPTHWISE_CONV_2D, mirroring TFLite's `reference_ops::DepthwiseConv`.
    public static func reference(params: DepthwiseConv2DParams, _ o: ConvOperands<Float, Float, Float, Float>) {
        let g = params.geometry
        let mult = params.depthMultiplier
        let inputShape = o.inputShape, filterShape = o.filterShape
        // Output channel `oc` reads input channel `oc / depthMultiplier`.
        o.outputShape.forEachElement { b, oy, ox, oc, index in
            let ic = oc / mult
            var sum: Float = 0
            g.forEachTap(y: oy, x: ox, filter: filterShape, input: inputShape) { fy, fx, iy, ix in
                let x = o.input[((b * inputShape.height + iy) * inputShape.width + ix) * inputShape.channels + ic]
                let w = o.filter[(fy * filterShape.width + fx) * filterShape.channels + oc]
                sum += x * w
            }
            if let bias = o.bias { sum += bias[oc] }
            o.output[index] = params.activation.clamp(sum)
        }
    }
}
