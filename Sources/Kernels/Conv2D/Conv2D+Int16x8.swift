/// Reference CONV_2D with int16 activations and int8 per-channel weights ("16x8"), as TFLite's
/// reference `ConvPerChannel` for int16 computes it: a 64-bit accumulator, a 64-bit bias, and
/// the 64-bit `MultiplyByQuantizedMultiplier`. Activation zero points are 0 in this scheme, so
/// only the output offset is applied.
///
/// - Parameters:
///   - params: `inputOffset` and `filterOffset` must be 0 (prepare checks the zero points).
///   - bias: one int64 per output channel, or nil. Models whose bias is int32 are widened once
///     at prepare.
public func quantizedConv2DInt16x8(
    _ params: QuantizedConvParams,
    input: UnsafePointer<Int16>, inputShape: NHWC,
    filter: UnsafePointer<Int8>, filterShape: NHWC,
    bias: UnsafePointer<Int64>?,
    output: UnsafeMutablePointer<Int16>, outputShape: NHWC
) {
    let g = params.geometry
    let inputDepth = inputShape.channels
    let filterDepth = filterShape.channels
    let outputDepth = outputShape.channels
    let filtersPerGroup = outputDepth / (inputDepth / filterDepth)
    let kernelHeight = filterShape.height, kernelWidth = filterShape.width
    for b in 0..<outputShape.batch {
        for oy in 0..<outputShape.height {
            let inYOrigin = oy * g.strideHeight - g.paddingHeight.before
            for ox in 0..<outputShape.width {
                let inXOrigin = ox * g.strideWidth - g.paddingWidth.before
                for oc in 0..<outputDepth {
                    let channelBase = (oc / filtersPerGroup) * filterDepth
                    var acc: Int64 = 0
                    for ky in 0..<kernelHeight {
                        let iy = inYOrigin + ky * g.dilationHeight
                        if iy < 0 || iy >= inputShape.height { continue }
                        for kx in 0..<kernelWidth {
                            let ix = inXOrigin + kx * g.dilationWidth
                            if ix < 0 || ix >= inputShape.width { continue }
                            let inputRow = input + (((b * inputShape.height + iy) * inputShape.width + ix) * inputDepth + channelBase)
                            let filterRow = filter + (((oc * kernelHeight + ky) * kernelWidth + kx) * filterDepth)
                            for ic in 0..<filterDepth {
                                acc &+= Int64(filterRow[ic]) &* Int64(inputRow[ic])
                            }
                        }
                    }
                    if let bias { acc &+= bias[oc] }
                    var scaled = params.outputMultipliers[oc].apply(acc)
                    scaled &+= params.outputOffset
                    let o = ((b * outputShape.height + oy) * outputShape.width + ox) * outputDepth + oc
                    output[o] = Int16(clampedQuantized: params.activation.clamp(scaled))
                }
            }
        }
    }
}
