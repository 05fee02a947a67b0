/// An int8 DEPTHWISE_CONV_2D prepared for the optimised path (depth multiplier 1, symmetric
/// weights, an int8 input zero point): the bias and per-channel rescale laid out for vectorised
/// requantisation. Built once at prepare; results equal `quantizedDepthwiseConv2D` exactly.
public struct PreparedInt8DepthwiseConv2D: Sendable {
    /// The reference parameters (geometry, rescale, clamp).
    public let params: QuantizedConvParams
    /// Bias, multipliers and clamp per block of channels.
    let requantization: Int8Requantization

    /// Prepares a layer of `channels` channels; nil when the optimised path does not apply
    /// (a depth multiplier other than 1, asymmetric weights, or an input offset outside
    /// -128...128, which would overflow the int16 products).
    public init?(_ params: QuantizedConvParams, depthMultiplier: Int, channels: Int, bias: UnsafePointer<Int32>?) {
        guard depthMultiplier == 1, params.filterOffset == 0, (-128...128).contains(params.inputOffset),
              params.outputMultipliers.count == channels else { return nil }
        self.params = params
        self.requantization = Int8Requantization(foldedBias: (0..<channels).map { bias?[$0] ?? 0 },
                                                 multipliers: params.outputMultipliers, outputOffset: params.outputOffset,
                                                 activation: params.activation)
    }
}

/// Optimised int8 DEPTHWISE_CONV_2D: 16 channels at a time (`acc += filter * (input + inputOffset)`),
/// then vectorised per-channel requantisation. The product is formed in int16 lanes, which is
/// exact: `|input + inputOffset| <= 255` for an int8 zero point and `|filter| <= 128`, so
/// `|product| <= 32640`. Bit-exact with `quantizedDepthwiseConv2D`. Output rows are split across
/// `pool`'s threads (nil: the calling thread).
public func depthwiseConv2DInt8Optimized(
    _ prepared: PreparedInt8DepthwiseConv2D,
    input: UnsafePointer<Int8>, inputShape: NHWC,
    filter: UnsafePointer<Int8>, filterShape: NHWC,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
    pool: ThreadPool? = nil
) {
    let rows = outputShape.batch * outputShape.height
    let run = { (_: Int, range: Range<Int>) in
        depthwiseConv2DInt8Rows(prepared, rows: range, input: input, inputShape: inputShape, filter: filter,
                                filterShape: filterShape, output: output, outputShape: outputShape)
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
    _ prepared: PreparedInt8DepthwiseConv2D, rows: Range<Int>,
    input: UnsafePointer<Int8>, inputShape: NHWC,
    filter: UnsafePointer<Int8>, filterShape: NHWC,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC
) {
    let params = prepared.params, g = params.geometry, q = prepared.requantization
    let channels = inputShape.channels
    let inputOffset = params.inputOffset
    let offset = SIMD16<Int16>(repeating: Int16(inputOffset))
    let rin = UnsafeRawPointer(input), rw = UnsafeRawPointer(filter)
    q.bias.withUnsafeBufferPointer { bias in
    q.multiplier.withUnsafeBufferPointer { mult in
    q.leftShift.withUnsafeBufferPointer { left in
    q.rightShift.withUnsafeBufferPointer { right in
        let (bp, mp, lp, rp) = (bias.baseAddress!, mult.baseAddress!, left.baseAddress!, right.baseAddress!)
        for r in rows {
            let b = r / outputShape.height, oy = r % outputShape.height
            // The filter rows that land inside the input for this output row.
            let iy0 = oy * g.strideHeight - g.paddingHeight.before
            for ox in 0..<outputShape.width {
                let out = output + (r * outputShape.width + ox) * channels
                let ix0 = ox * g.strideWidth - g.paddingWidth.before
                var c = 0
                while c < channels {
                    let width = min(16, channels - c)
                    var lanes = SIMD16<Int32>()
                    for ky in 0..<filterShape.height {
                        let iy = iy0 + ky * g.dilationHeight
                        if iy < 0 || iy >= inputShape.height { continue }
                        for kx in 0..<filterShape.width {
                            let ix = ix0 + kx * g.dilationWidth
                            if ix < 0 || ix >= inputShape.width { continue }
                            let inBase = ((b * inputShape.height + iy) * inputShape.width + ix) * channels + c
                            let wBase = (ky * filterShape.width + kx) * channels + c
                            if width == 16 {
                                let x = widenedToInt16(rin.loadUnaligned(fromByteOffset: inBase, as: SIMD16<Int8>.self))
                                let w = widenedToInt16(rw.loadUnaligned(fromByteOffset: wBase, as: SIMD16<Int8>.self))
                                lanes &+= widenedToInt32(w &* (x &+ offset))
                            } else {
                                // The last partial group of channels accumulates lane by lane.
                                for j in 0..<width {
                                    lanes[j] &+= Int32(filter[wBase + j]) &* (Int32(input[inBase + j]) &+ inputOffset)
                                }
                            }
                        }
                    }
                    // Requantisation constants are padded to whole blocks of 8 channels.
                    let block = c / Int8PackedWeights.blockWidth
                    q.store(lanes.lowHalf, block: block, to: out + c, count: min(8, width), bp, mp, lp, rp)
                    if width > 8 {
                        q.store(lanes.highHalf, block: block + 1, to: out + c + 8, count: width - 8, bp, mp, lp, rp)
                    }
                    c += width
                }
            }
        }
    }}}}
}
