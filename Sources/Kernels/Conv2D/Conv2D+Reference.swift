extension Conv2D {
    /// The reference CONV_2D, a direct loop mirroring TFLite's `reference_ops::Conv`, including
    /// grouped convolution (`inputShape.channels` a multiple of `filterShape.channels`).
    ///
    /// Window positions outside the input contribute nothing (zero padding).
    public static func reference(params: Conv2DParams, _ o: ConvOperands<Float, Float, Float, Float>) {
        let g = params.geometry
        let inputShape = o.inputShape, filterShape = o.filterShape
        let groupDepth = filterShape.channels
        let groups = groupDepth == 0 ? 1 : inputShape.channels / groupDepth
        let outputsPerGroup = Swift.max(1, o.outputShape.channels / Swift.max(1, groups))
        o.outputShape.forEachElement { b, oy, ox, oc, index in
            let group = oc / outputsPerGroup
            var sum: Float = 0
            g.forEachTap(y: oy, x: ox, filter: filterShape, input: inputShape) { fy, fx, iy, ix in
                let inRow = o.input + ((b * inputShape.height + iy) * inputShape.width + ix) * inputShape.channels + group * groupDepth
                let fRow = o.filter + ((oc * filterShape.height + fy) * filterShape.width + fx) * groupDepth
                for ic in 0..<groupDepth { sum += inRow[ic] * fRow[ic] }
            }
            if let bias = o.bias { sum += bias[oc] }
            o.output[index] = params.activation.clamp(sum)
        }
    }
}
