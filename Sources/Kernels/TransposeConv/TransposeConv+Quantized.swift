extension TransposeConv.Quantized {
    /// Reference quantised TRANSPOSE_CONV for int8 (per-channel weights), as TFLite's reference
    /// integer kernel: every input pixel scatters `(input + inputOffset) * filter` into an int32
    /// accumulator over the output window, then each output is biased, rescaled per channel, offset
    /// and clamped.
    ///
    /// - Parameters:
    ///   - params: `geometry` holds the strides and the padding TFLite derives for the transposed
    ///     convolution (the padding of a forward convolution from the output shape back to the
    ///     input shape); only `before` is used.
    ///   - filter: `[outputChannels, kernelHeight, kernelWidth, inputChannels]`.
    ///   - bias: one int32 per output channel, or nil.
    ///   - scratch: `outputShape.elementCount` int32 values of working space.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    public static func reference<T: QuantizedElement>(_ params: QuantizedConvParams, _ o: ConvOperands<T, T, Int32, T>,
                                                      scratch: UnsafeMutablePointer<Int32>) {
        let inputOffset = params.inputOffset, filterOffset = params.filterOffset
        forEachQuantizedTransposeConvSum(params.geometry, o, accumulators: scratch,
                                         product: { (Int32($0) &+ inputOffset) &* (Int32($1) &+ filterOffset) }) { i, oc, sum in
            o.output[i] = params.output(sum, channel: oc, bias: o.bias)
        }
    }
}

extension TransposeConv.Int16x8 {
    /// Reference 16x8 TRANSPOSE_CONV (int16 activations, int8 per-channel weights, int64 bias), as
    /// TFLite's reference integer kernel: both operands are symmetric, so every input pixel
    /// scatters `input * filter` into an int64 accumulator; each output is then biased, rescaled
    /// per channel by the 64-bit `MultiplyByQuantizedMultiplier` and clamped.
    ///
    /// - Parameters:
    ///   - params: as for the int8 kernel; the input and filter offsets are not read.
    ///   - scratch: `outputShape.elementCount` int64 values of working space.
    public static func reference(_ params: QuantizedConvParams, _ o: ConvOperands<Int16, Int8, Int64, Int16>,
                                 scratch: UnsafeMutablePointer<Int64>) {
        forEachQuantizedTransposeConvSum(params.geometry, o, accumulators: scratch, product: { Int64($0) &* Int64($1) }) { i, oc, sum in
            var acc = sum
            if let bias = o.bias { acc &+= bias[oc] }
            o.output[i] = Int16(clamping: params.activation.clamp(params.outputMultipliers[oc].apply(acc)))
        }
    }
}

/// The integer TRANSPOSE_CONV's scatter, with the strides and the `before` padding of `g`, into
/// `accumulators` (one per output element); then `store` gets every output index in order, its
/// channel and its sum.
@inline(__always)
func forEachQuantizedTransposeConvSum<In, Weight, Bias, Out, Sum: FixedWidthInteger>(
    _ g: ConvGeometry, _ o: ConvOperands<In, Weight, Bias, Out>, accumulators: UnsafeMutablePointer<Sum>,
    product: (In, Weight) -> Sum, store: (_ index: Int, _ channel: Int, Sum) -> Void
) {
    transposeConvScatter(strideHeight: g.strideHeight, strideWidth: g.strideWidth,
                         paddingTop: g.paddingHeight.before, paddingLeft: g.paddingWidth.before,
                         o, accumulators: accumulators, product: product, add: &+)
    let outputDepth = o.outputShape.channels
    for i in 0..<o.outputShape.elementCount { store(i, i % outputDepth, accumulators[i]) }
}
