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
        scatter(params.geometry, input: input, inputShape: inputShape, filter: filter, filterShape: filterShape,
                outputShape: outputShape, scratch: scratch,
                value: { Int32($0) &+ inputOffset }, weight: { Int32($0) &+ filterOffset })
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
        scatter(params.geometry, input: input, inputShape: inputShape, filter: filter, filterShape: filterShape,
                outputShape: outputShape, scratch: scratch, value: { Int64($0) }, weight: { Int64($0) })
        let outputCount = outputShape.elementCount, outputDepth = outputShape.channels
        for i in 0..<outputCount {
            let oc = i % outputDepth
            var acc = scratch[i]
            if let bias { acc &+= bias[oc] }
            output[i] = Int16(clamping: params.activation.clamp(params.outputMultipliers[oc].apply(acc)))
        }
    }
}

/// The scatter both quantised kernels share: every input pixel adds `value(input) *
/// weight(filter)` into the accumulators of the output window it reaches (`scratch` is zeroed
/// first), with wrapping arithmetic.
@inline(__always)
private func scatter<In, Weight, Accumulator: FixedWidthInteger>(
    _ g: ConvGeometry, input: UnsafePointer<In>, inputShape: NHWC, filter: UnsafePointer<Weight>, filterShape: NHWC,
    outputShape: NHWC, scratch: UnsafeMutablePointer<Accumulator>,
    value: (In) -> Accumulator, weight: (Weight) -> Accumulator
) {
    scratch.update(repeating: 0, count: outputShape.elementCount)
    let inputDepth = inputShape.channels, outputDepth = outputShape.channels
    for b in 0..<inputShape.batch {
        for iy in 0..<inputShape.height {
            for ix in 0..<inputShape.width {
                let originY = iy * g.strideHeight - g.paddingHeight.before
                let originX = ix * g.strideWidth - g.paddingWidth.before
                for ic in 0..<inputDepth {
                    let x = value(input[((b * inputShape.height + iy) * inputShape.width + ix) * inputDepth + ic])
                    for ky in 0..<filterShape.height {
                        let oy = originY + ky
                        if oy < 0 || oy >= outputShape.height { continue }
                        for kx in 0..<filterShape.width {
                            let ox = originX + kx
                            if ox < 0 || ox >= outputShape.width { continue }
                            let base = ((b * outputShape.height + oy) * outputShape.width + ox) * outputDepth
                            for oc in 0..<outputDepth {
                                let w = weight(filter[((oc * filterShape.height + ky) * filterShape.width + kx) * inputDepth + ic])
                                scratch[base + oc] &+= x &* w
                            }
                        }
                    }
                }
            }
        }
    }
}
