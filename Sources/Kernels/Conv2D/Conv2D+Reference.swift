extension Conv2D {
    /// The reference CONV_2D, a direct loop mirroring TFLite's `reference_ops::Conv`, including
    /// grouped convolution (`inputShape.channels` a multiple of `filterShape.channels`).
    ///
    /// Window positions outside the input contribute nothing (zero padding).
    public static func reference(params: Conv2DParams,
                                 input: UnsafePointer<Float>, inputShape: NHWC,
                                 filter: UnsafePointer<Float>, filterShape: NHWC,
                                 bias: UnsafePointer<Float>?,
                                 output: UnsafeMutablePointer<Float>, outputShape: NHWC) {
        let g = params.geometry
        let groupDepth = filterShape.channels
        let groups = groupDepth == 0 ? 1 : inputShape.channels / groupDepth
        let outputsPerGroup = Swift.max(1, outputShape.channels / Swift.max(1, groups))
        outputShape.forEachElement { b, oy, ox, oc, o in
            let group = oc / outputsPerGroup
            var sum: Float = 0
            g.forEachTap(y: oy, x: ox, filter: filterShape, input: inputShape) { fy, fx, iy, ix in
                let inRow = input + ((b * inputShape.height + iy) * inputShape.width + ix) * inputShape.channels + group * groupDepth
                let fRow = filter + ((oc * filterShape.height + fy) * filterShape.width + fx) * groupDepth
                for ic in 0..<groupDepth { sum += inRow[ic] * fRow[ic] }
            }
            if let bias { sum += bias[oc] }
            output[o] = params.activation.clamp(sum)
        }
    }
}
