/// The window arithmetic shared by convolutions and pooling: strides, dilations and the
/// padding that prepare computed once from the padding scheme.
public struct ConvGeometry: Sendable, Equatable {
    public var strideHeight: Int
    public var strideWidth: Int
    public var dilationHeight: Int
    public var dilationWidth: Int
    public var paddingHeight: AxisPadding
    public var paddingWidth: AxisPadding

    public init(strideHeight: Int, strideWidth: Int, dilationHeight: Int = 1, dilationWidth: Int = 1,
                paddingHeight: AxisPadding, paddingWidth: AxisPadding) {
        self.strideHeight = strideHeight
        self.strideWidth = strideWidth
        self.dilationHeight = dilationHeight
        self.dilationWidth = dilationWidth
        self.paddingHeight = paddingHeight
        self.paddingWidth = paddingWidth
    }

    /// Derives output extents and padding for a window of `filterHeight` x `filterWidth` over an
    /// input of `inputHeight` x `inputWidth`. Nil when the window cannot be applied.
    public static func make(padding: PaddingScheme, inputHeight: Int, inputWidth: Int,
                            filterHeight: Int, filterWidth: Int,
                            strideHeight: Int, strideWidth: Int,
                            dilationHeight: Int = 1, dilationWidth: Int = 1)
        -> (geometry: ConvGeometry, outputHeight: Int, outputWidth: Int)?
    {
        guard let oh = padding.outputSize(input: inputHeight, filter: filterHeight, stride: strideHeight, dilation: dilationHeight),
              let ow = padding.outputSize(input: inputWidth, filter: filterWidth, stride: strideWidth, dilation: dilationWidth)
        else { return nil }
        let ph = padding.padding(input: inputHeight, filter: filterHeight, stride: strideHeight, dilation: dilationHeight, output: oh)
        let pw = padding.padding(input: inputWidth, filter: filterWidth, stride: strideWidth, dilation: dilationWidth, output: ow)
        let g = ConvGeometry(strideHeight: strideHeight, strideWidth: strideWidth,
                             dilationHeight: dilationHeight, dilationWidth: dilationWidth,
                             paddingHeight: ph, paddingWidth: pw)
        return (g, oh, ow)
    }
}

extension ConvGeometry {
    /// Calls `body(ky, kx, iy, ix)`, rows first, for each tap of a `filter`-sized window at output
    /// position (`oy`, `ox`) that lands inside `input`: the taps left out lie in the zero padding
    /// and add nothing to a sum.
    @inline(__always)
    func forEachTap(y oy: Int, x ox: Int, filter: NHWC, input: NHWC,
                    _ body: (_ ky: Int, _ kx: Int, _ iy: Int, _ ix: Int) -> Void) {
        let iy0 = oy * strideHeight - paddingHeight.before
        let ix0 = ox * strideWidth - paddingWidth.before
        for ky in 0..<filter.height {
            let iy = iy0 + ky * dilationHeight
            if iy < 0 || iy >= input.height { continue }
            for kx in 0..<filter.width {
                let ix = ix0 + kx * dilationWidth
                if ix < 0 || ix >= input.width { continue }
                body(ky, kx, iy, ix)
            }
        }
    }
}
