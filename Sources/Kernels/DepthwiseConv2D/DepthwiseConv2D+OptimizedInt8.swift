/// Optimised int8 DEPTHWISE_CONV_2D for a depth multiplier of 1: 16 channels at a time
/// (`acc += filter * (input + inputOffset)`), then the shared per-channel requantisation.
/// The product is formed in int16 lanes, which is exact: `|input + inputOffset| <= 255` for an
/// int8 zero point and `|filter| <= 128`, so `|product| <= 32640`. Bit-exact with
/// `quantizedDepthwiseConv2D`; other depth multipliers (and out-of-range zero points) use the
/// reference kernel. Output rows are split across `pool`'s threads (nil: the calling thread).
public func depthwiseConv2DInt8Optimized(
    _ params: QuantizedConvParams, depthMultiplier: Int,
    input: UnsafePointer<Int8>, inputShape: NHWC,
    filter: UnsafePointer<Int8>, filterShape: NHWC,
    bias: UnsafePointer<Int32>?,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
    pool: ThreadPool? = nil
) {
    guard depthMultiplier == 1, params.filterOffset == 0, (-128...128).contains(params.inputOffset) else {
        quantizedDepthwiseConv2D(params, depthMultiplier: depthMultiplier, input: input, inputShape: inputShape,
                                 filter: filter, filterShape: filterShape, bias: bias, output: output, outputShape: outputShape)
        return
    }
    let rows = outputShape.batch * outputShape.height
    let run = { (_: Int, range: Range<Int>) in
        depthwiseConv2DInt8Rows(params, rows: range, input: input, inputShape: inputShape, filter: filter, filterShape: filterShape,
                                bias: bias, output: output, outputShape: outputShape)
    }
    if let pool, pool.threadCount > 1 {
        pool.parallelFor(count: rows, chunks: pool.threadCount, run)
    } else {
        run(0, 0..<rows)
    }
}

/// One thread's share of ``depthwiseConv2DInt8Optimized``: output rows `rows` (indexed
/// `batch * outputHeight + y`).
private func depthwiseConv2DInt8Rows(
    _ params: QuantizedConvParams, rows: Range<Int>,
    input: UnsafePointer<Int8>, inputShape: NHWC,
    filter: UnsafePointer<Int8>, filterShape: NHWC,
    bias: UnsafePointer<Int32>?,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC
) {
    let g = params.geometry
    let channels = inputShape.channels
    let offset = SIMD16<Int16>(repeating: Int16(params.inputOffset))
    let rin = UnsafeRawPointer(input), rw = UnsafeRawPointer(filter)
    for r in rows {
        let b = r / outputShape.height, oy = r % outputShape.height
        do {
            for ox in 0..<outputShape.width {
                let out = output + ((b * outputShape.height + oy) * outputShape.width + ox) * channels
                var c = 0
                while c < channels {
                    let width = min(16, channels - c)
                    let vectorised = width == 16
                    // The last partial group of channels accumulates lane by lane.
                    var lanes = SIMD16<Int32>()
                    for ky in 0..<filterShape.height {
                        let iy = oy * g.strideHeight - g.paddingHeight.before + ky * g.dilationHeight
                        if iy < 0 || iy >= inputShape.height { continue }
                        for kx in 0..<filterShape.width {
                            let ix = ox * g.strideWidth - g.paddingWidth.before + kx * g.dilationWidth
                            if ix < 0 || ix >= inputShape.width { continue }
                            let inBase = ((b * inputShape.height + iy) * inputShape.width + ix) * channels + c
                            let wBase = (ky * filterShape.width + kx) * channels + c
                            if vectorised {
                                let x = SIMD16<Int16>(truncatingIfNeeded: rin.loadUnaligned(fromByteOffset: inBase, as: SIMD16<Int8>.self))
                                let w = SIMD16<Int16>(truncatingIfNeeded: rw.loadUnaligned(fromByteOffset: wBase, as: SIMD16<Int8>.self))
                                lanes &+= SIMD16<Int32>(truncatingIfNeeded: w &* (x &+ offset))
                            } else {
                                for j in 0..<width {
                                    lanes[j] &+= Int32(filter[wBase + j]) &* (Int32(input[inBase + j]) &+ params.inputOffset)
                                }
                            }
                        }
                    }
                    for j in 0..<width {
                        let oc = c + j
                        var acc = lanes[j]
                        if let bias { acc &+= bias[oc] }
                        acc = params.outputMultipliers[oc].apply(acc) &+ params.outputOffset
                        out[oc] = Int8(clampedQuantized: params.activation.clamp(acc))
                    }
                    c += width
                }
            }
        }
    }
}
