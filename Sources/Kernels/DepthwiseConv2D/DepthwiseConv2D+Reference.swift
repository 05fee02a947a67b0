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
                let iy0 = oy * g.strideHeight - g.paddingHeight.before
                for ox in 0..<outputShape.width {
                    let ix0 = ox * g.strideWidth - g.paddingWidth.before
                    for ic in 0..<inputShape.channels {
                        for m in 0..<mult {
                            let oc = ic * mult + m
                            var sum: Float = 0
                            for fy in 0..<filterShape.height {
                                let iy = iy0 + fy * g.dilationHeight
                                if iy < 0 || iy >= inputShape.height { continue }
                                for fx in 0..<filterShape.width {
                                    let ix = ix0 + fx * g.dilationWidth
                                    if ix < 0 || ix >= inputShape.width { continue }
                                    let x = input[((b * inputShape.height + iy) * inputShape.width + ix) * inputShape.channels + ic]
                                    let w = filter[(fy * filterShape.width + fx) * filterShape.channels + oc]
                                    sum += x * w
                                }
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
