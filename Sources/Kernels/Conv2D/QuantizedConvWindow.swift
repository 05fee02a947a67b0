/// The window walk shared by the reference quantised convolutions (int8/uint8 and 16x8): for
/// every output element, in NHWC order, the sum of `product(filter, input)` over its in-bounds
/// taps, started from zero and handed to `store` with the element's output index and channel.
/// Grouped convolution is supported: the group count is `input.channels / filter.channels`.
@inline(__always)
func forEachQuantizedConvSum<Input, Filter, Sum: FixedWidthInteger>(
    _ g: ConvGeometry,
    input: UnsafePointer<Input>, inputShape: NHWC,
    filter: UnsafePointer<Filter>, filterShape: NHWC,
    outputShape: NHWC,
    product: (Filter, Input) -> Sum,
    store: (_ index: Int, _ channel: Int, Sum) -> Void
) {
    let inputDepth = inputShape.channels
    let filterDepth = filterShape.channels
    let outputDepth = outputShape.channels
    let filtersPerGroup = outputDepth / (inputDepth / filterDepth)
    outputShape.forEachElement { b, oy, ox, oc, o in
        let channelBase = (oc / filtersPerGroup) * filterDepth
        var acc: Sum = 0
        g.forEachTap(y: oy, x: ox, filter: filterShape, input: inputShape) { ky, kx, iy, ix in
            let inputRow = input + (((b * inputShape.height + iy) * inputShape.width + ix) * inputDepth + channelBase)
            let filterRow = filter + (((oc * filterShape.height + ky) * filterShape.width + kx) * filterDepth)
            for ic in 0..<filterDepth { acc &+= product(filterRow[ic], inputRow[ic]) }
        }
        store(o, oc, acc)
    }
}
