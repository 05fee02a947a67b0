extension Resize.Quantized {
    /// Reference RESIZE_BILINEAR for int8 and int16, as TFLite's `ResizeBilinearInteger`: source
    /// positions in 10-bit fixed point, the four-tap weighted sum in 20-bit fixed point, rounded
    /// half away from zero. Input and output share their quantisation.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == Int16)
    public static func bilinear<T: QuantizedElement>(
        _ options: ResizeOptions,
        input: UnsafePointer<T>, inputShape: NHWC,
        output: UnsafeMutablePointer<T>, outputShape: NHWC
    ) {
        let (inH, inW, outH, outW) = (inputShape.height, inputShape.width, outputShape.height, outputShape.width)
        var heightScale = ((1 << 10) * inH + outH / 2) / outH
        var widthScale = ((1 << 10) * inW + outW / 2) / outW
        if options.alignCorners && outH > 1 { heightScale = ((1 << 10) * (inH - 1) + (outH - 1) / 2) / (outH - 1) }
        if options.alignCorners && outW > 1 { widthScale = ((1 << 10) * (inW - 1) + (outW - 1) / 2) / (outW - 1) }
        func source(_ value: Int, _ scale: Int, _ size: Int) -> (Int, Int, Int) {
            let scaled = options.halfPixelCenters ? value * scale + scale / 2 - (1 << 9) : value * scale
            return (scaled, max(scaled / (1 << 10), 0), min((scaled + (1 << 10) - 1) / (1 << 10), size - 1))
        }
        let depth = inputShape.channels
        for b in 0..<outputShape.batch {
            for y in 0..<outH {
                let (sy, y0, y1) = source(y, heightScale, inH)
                let fy = Int64(sy - (1 << 10) * y0)
                for x in 0..<outW {
                    let (sx, x0, x1) = source(x, widthScale, inW)
                    let fx = Int64(sx - (1 << 10) * x0)
                    for c in 0..<depth {
                        func at(_ yy: Int, _ xx: Int) -> Int64 {
                            Int64(input[((b * inH + yy) * inW + xx) * depth + c])
                        }
                        let sum = at(y0, x0) * ((1 << 10) - fy) * ((1 << 10) - fx)
                            + at(y1, x0) * fy * ((1 << 10) - fx)
                            + at(y0, x1) * ((1 << 10) - fy) * fx
                            + at(y1, x1) * fy * fx
                        let rounding: Int64 = sum > 0 ? (1 << 19) : -(1 << 19)
                        output[((b * outH + y) * outW + x) * depth + c] = T(truncatingIfNeeded: (sum + rounding) / (1 << 20))
                    }
                }
            }
        }
    }
}
