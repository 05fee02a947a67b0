extension DepthwiseConv2D {
    /// The reference DEPTHWISE_CONV_2D, mirroring TFLite's `reference_ops::DepthwiseConv`.
    public static func reference(params: DepthwiseConv2DParams,
                                 input: UnsafePointer<Float>, inputShape: NHWC,
                                 filter: UnsafePointer<Float>, filterShape: NHWC,
                                 bias: UnsafePointer<Float>?,
                                 output: UnsafeMutablePointer<Float>, outputShape: NHWC) {
        let g = params.geometry
        let mult = params.depthMultiplier
        for b in 0..<outputShape.batch {
            for oy in 0..<outputShape.height {
                for ox in 0..<outputShape.width {
                    for ic in 0..<inputShape.channels {
                        for m in 0..<mult {
                            let oc = ic * mult + m
                            var sum: Float = 0
                            g.forEachTap(y: oy, x: ox, filter: filterShape, input: inputShape) { fy, fx, iy, ix in
                                let x = input[((b * inputShape.height + iy) * inputShape.width + ix) * inputShape.channels + ic]
                                let w = filter[(fy * filterShape.width + fx) * filterShape.channels + oc]
                                sum += x * w
                            }
                            if let bias { sum += bias[oc] }
                            output[((b * outputShape.height + oy) * outputShape.width + ox) * outputShape.channels + oc] = params.activation.clamp(sum)
                        }
                    }
                }
            }
        }
    }
}
