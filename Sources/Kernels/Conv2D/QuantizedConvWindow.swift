/// The window walk shared by the reference quantised convolutions (int8/uint8 and 16x8): for
/// every output element, in NHWC order, the sum of `product(filter, input)` over its in-bounds
/// taps, started from zero and handed to `store` with the element's output index and channel.
/// Grouped convolution is supported: the group count is `input.channels / filter.channels`.
@inline(__always)
func forEachQuantizedConvSum<Input, Filter, Bias, Output, Sum: FixedWidthInteger>(
    _ g: ConvGeometry, _ o: ConvOperands<Input, Filter, Bias, Output>,
    product: (Filter, Input) -> Sum,
    store: (_ index: Int, _ channel: Int, Sum) -> Void
) {
    let inputShape = o.inputShape, filterShape = o.filterShape
    let inputDepth = inputShape.channels
    let filterDepth = filterShape.channels
    let outputDepth = o.outputShape.channels
    let filtersPerGroup = outputDepth / (inputDepth / filterDepth)
    o.outputShape.forEachElement { b, oy, ox, oc, index in
        let channelBase = (oc / filtersPerGroup) * filterDepth
        var acc: Sum = 0
        g.forEachTap(y: oy, x: ox, filter: filterShape, input: inputShape) { ky, kx, iy, ix in
            let inputRow = o.input + (((b * inputShape.height + iy) * inputShape.width + ix) * inputDepth + channelBase)
            let filterRow = o.filter + (((oc * filterShape.height + ky) * filterShape.width + kx) * filterDepth)
            for ic in 0..<filterDepth { acc &+= product(filterRow[ic], inputRow[ic]) }
        }
        store(index, oc, acc)
    }
}

extension QuantizedConvParams {
    /// The stored value of output channel `channel` from its int32 sum, as TFLite's int8 and uint8
    /// convolutions requantise: the bias added, rescaled, offset by the output zero point, clamped.
    @inline(__always)
    func output<T: QuantizedElement>(_ sum: Int32, channel: Int, bias: UnsafePointer<Int32>?) -> T {
        var acc = sum
        if let bias { acc &+= bias[channel] }
        return T(clampedQuantized: activation.clamp(outputMultipliers[channel].apply(acc) &+ outputOffset))
    }
}
