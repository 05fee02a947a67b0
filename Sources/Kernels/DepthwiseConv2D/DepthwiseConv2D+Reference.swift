extension DepthwiseConv2D {
    /// The reference DEPTHWISE_CONV_2D, mirroring TFLite's `reference_ops::DepthwiseConv`.
    public static func reference(params: DepthwiseConv2DParams,
                                 input: UnsafePointer<Float>, inputShape: NHWC,
                                 filter: UnsafePointer<Float>, filterShape: NHWC,
                                 bias: UnsafePointer<Float>?,
                                 output: UnsafeMutablePointer<Float>, outputShape: NHWC) {
        let g = params.geometry
        let mult = params.depthMultiplier
        // Output channel `oc` reads input channel `oc / depthMultiplier`.
        outputShape.forEachElement { b, oy, ox, oc, o in
            let ic = oc / mult
            var sum: Float = 0
            g.forEachTap(y: oy, x: ox, filter: filterShape, input: inputShape) { fy, fx, iy, ix in
                let x = input[((b * inputShape.height + iy) * inputShape.width + ix) * inputShape.channels + ic]
                let w = filter[(fy * filterShape.width + fx) * filterShape.channels + oc]
                sum += x * w
            }
            if let bias { sum += bias[oc] }
            output[o] = params.activation.clamp(sum)
        }
    }
}
