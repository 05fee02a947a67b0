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
    public static func reference<T: QuantizedElement>(
        _ params: QuantizedConvParams,
        input: UnsafePointer<T>, inputShape: NHWC,
        filter: UnsafePointer<T>, filterShape: NHWC,
        bias: UnsafePointer<Int32>?,
        output: UnsafeMutablePointer<T>, outputShape: NHWC,
        scratch: UnsafeMutablePointer<Int32>
    ) {
        let inputOffset = params.inputOffset, filterOffset = params.filterOffset
        let g = params.geometry
        transposeConvScatter(strideHeight: g.strideHeight, strideWidth: g.strideWidth,
                             paddingTop: g.paddingHeight.before, paddingLeft: g.paddingWidth.before,
                             input: input, inputShape: inputShape, filter: filter, filterShape: filterShape,
                             outputShape: outputShape, accumulators: scratch,
                             product: { (Int32($0) &+ inputOffset) &* (Int32($1) &+ filterOffset) }, add: &+)
        let outputCount = outputShape.elementCount, outputDepth = outputShape.channels
        for i in 0..<outputCount {
            let oc = i % outputDepth
            var acc = scratch[i]
            if let bias { acc &+= bias[oc] }
            acc = params.outputMultipliers[oc].apply(acc) &+ params.outputOffset
            output[i] = T(clampedQuantized: params.activation.clamp(acc))
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
    public static func reference(
        _ params: QuantizedConvParams,
        input: UnsafePointer<Int16>, inputShape: NHWC,
        filter: UnsafePointer<Int8>, filterShape: NHWC,
        bias: UnsafePointer<Int64>?,
        output: UnsafeMutablePointer<Int16>, outputShape: NHWC,
        scratch: UnsafeMutablePointer<Int64>
    ) {
        let g = params.geometry
        transposeConvScatter(strideHeight: g.strideHeight, strideWidth: g.strideWidth,
                             paddingTop: g.paddingHeight.before, paddingLeft: g.paddingWidth.before,
                             input: input, inputShape: inputShape, filter: filter, filterShape: filterShape,
                             outputShape: outputShape, accumulators: scratch, product: { Int64($0) &* Int64($1) }, add: &+)
        let outputCount = outputShape.elementCount, outputDepth = outputShape.channels
        for i in 0..<outputCount {
            let oc = i % outputDepth
            var acc = scratch[i]
            if let bias { acc &+= bias[oc] }
            output[i] = Int16(clamping: params.activation.clamp(params.outputMultipliers[oc].apply(acc)))
        }
    }
}
