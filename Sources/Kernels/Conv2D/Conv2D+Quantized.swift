/// Reference quantised CONV_2D for int8 (per-channel symmetric weights) and uint8 (per-tensor
/// asymmetric weights), as TFLite's reference `ConvPerChannel` / uint8 `Conv` compute it:
/// `acc = sum (filter + filterOffset) * (input + inputOffset) + bias`, rescaled per output
/// channel, offset by the output zero point and clamped.
///
/// Grouped convolution is supported: the group count is `input.channels / filter.channels`.
///
/// - Parameters:
///   - input: NHWC activations.
///   - filter: `[outputChannels, kernelHeight, kernelWidth, inputChannels / groups]`.
///   - bias: one int32 per output channel, or nil.
///   - output: NHWC; prepare has checked every extent against the geometry.
@_specialize(exported: true, where T == Int8)
@_specialize(exported: true, where T == UInt8)
public func quantizedConv2D<T: QuantizedElement>(
    _ params: QuantizedConvParams,
    input: UnsafePointer<T>, inputShape: NHWC,
    filter: UnsafePointer<T>, filterShape: NHWC,
    bias: UnsafePointer<Int32>?,
    output: UnsafeMutablePointer<T>, outputShape: NHWC
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
                    var acc: Int32 = 0
                    for ky in 0..<kernelHeight {
                        let iy = inYOrigin + ky * g.dilationHeight
                        if iy < 0 || iy >= inputShape.height { continue }
                        for kx in 0..<kernelWidth {
                            let ix = inXOrigin + kx * g.dilationWidth
                            if ix < 0 || ix >= inputShape.width { continue }
                            let inputRow = input + (((b * inputShape.height + iy) * inputShape.width + ix) * inputDepth + channelBase)
                            let filterRow = filter + (((oc * kernelHeight + ky) * kernelWidth + kx) * filterDepth)
                            for ic in 0..<filterDepth {
                                acc &+= (Int32(filterRow[ic]) &+ params.filterOffset) &* (Int32(inputRow[ic]) &+ params.inputOffset)
                            }
                        }
                    }
                    if let bias { acc &+= bias[oc] }
                    acc = params.outputMultipliers[oc].apply(acc) &+ params.outputOffset
                    let o = ((b * outputShape.height + oy) * outputShape.width + ox) * outputDepth + oc
                    output[o] = T(clampedQuantized: params.activation.clamp(acc))
                }
            }
        }
    }
}
