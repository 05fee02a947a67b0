/// An int8 DEPTHWISE_CONV_2D prepared for the optimised path (depth multiplier 1, symmetric
/// constant weights): the filter converted to float in groups of ``int8LaneCount`` channels
/// (`[group][tap][lane]`, the last group zero-padded), the input zero-point correction folded
/// into the bias (`bias + inputOffset * sum(taps)`), and the requantisation constants laid out
/// for vectors. Built once at prepare; results equal `quantizedDepthwiseConv2D` exactly.
public struct PreparedInt8DepthwiseConv2D: Sendable {
    /// The reference parameters (geometry, rescale, clamp).
    public let params: QuantizedConvParams
    /// The filter's NHWC extents (`[1, height, width, channels]`).
    public let filterShape: NHWC
    /// The filter as floats, grouped by channel vector.
    let weights: [Float]
    /// Bias, multipliers and clamp per group of channels.
    let requantization: Int8Requantization

    /// Prepares a layer; nil when the optimised path does not apply: a depth multiplier other
    /// than 1, asymmetric weights, or a kernel of more than `exactFloatProductCount` taps
    /// (whose float sums could lose exactness).
    public init?(_ params: QuantizedConvParams, depthMultiplier: Int, filter: UnsafePointer<Int8>, filterShape: NHWC,
                 bias: UnsafePointer<Int32>?) {
        let channels = filterShape.channels, taps = filterShape.height * filterShape.width
        guard depthMultiplier == 1, params.filterOffset == 0, taps <= exactFloatProductCount,
              params.outputMultipliers.count == channels else { return nil }
        self.params = params
        self.filterShape = filterShape
        let lanes = int8LaneCount, groups = (channels + lanes - 1) / lanes
        var packed = [Float](repeating: 0, count: groups * taps * lanes)
        for c in 0..<channels {
            for t in 0..<taps {
                packed[(c / lanes * taps + t) * lanes + c % lanes] = Float(filter[t * channels + c])
            }
        }
        self.weights = packed
        let folded = (0..<channels).map { c in
            var sum: Int32 = 0
            for t in 0..<taps { sum &+= Int32(filter[t * channels + c]) }
            return (bias?[c] ?? 0) &+ params.inputOffset &* sum
        }
        self.requantization = Int8Requantization(foldedBias: folded, multipliers: params.outputMultipliers,
                                                 outputOffset: params.outputOffset, activation: params.activation)
    }
}

/// Optimised int8 DEPTHWISE_CONV_2D: ``int8LaneCount`` channels at a time, the int8 products
/// summed exactly in float lanes (see `exactFloatAccumulatorBias`), then vectorised
/// requantisation. Pixels whose taps all lie inside the input take a loop without bounds
/// checks; at the borders, padding taps read the input zero point (which the folded bias
/// cancels). Bit-exact with `quantizedDepthwiseConv2D`. Output rows are split across `pool`'s
/// threads (nil: the calling thread).
public func depthwiseConv2DInt8Optimized(
    _ prepared: PreparedInt8DepthwiseConv2D,
    input: UnsafePointer<Int8>, inputShape: NHWC,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
    pool: ThreadPool? = nil
) {
    let rows = outputShape.batch * outputShape.height
    if let pool, pool.threadCount > 1 {
        pool.parallelFor(count: rows, chunks: pool.threadCount) { _, range in
            depthwiseConv2DInt8Rows(prepared, rows: range, input: input, inputShape: inputShape,
                                    output: output, outputShape: outputShape)
        }
    } else {
        depthwiseConv2DInt8Rows(prepared, rows: 0..<rows, input: input, inputShape: inputShape,
                                output: output, outputShape: outputShape)
    }
}

/// One thread's share of ``depthwiseConv2DInt8Optimized``: output rows `rows` (indexed
/// `batch * outputHeight + y`).
private func depthwiseConv2DInt8Rows(
    _ prepared: PreparedInt8DepthwiseConv2D, rows: Range<Int>,
    input: UnsafePointer<Int8>, inputShape: NHWC,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC
) {
    let g = prepared.params.geometry
    let lanes = int8LaneCount, channels = inputShape.channels
    let (kh, kw) = (prepared.filterShape.height, prepared.filterShape.width), taps = kh * kw
    let (sh, sw, dh, dw) = (g.strideHeight, g.strideWidth, g.dilationHeight, g.dilationWidth)
    let (height, width) = (inputShape.height, inputShape.width)
    let fullGroups = channels / lanes, groups = (channels + lanes - 1) / lanes
    let padding = FloatLanes(repeating: Float(-prepared.params.inputOffset))
    let start = FloatLanes(repeating: exactFloatAccumulatorBias)
    let pixelStride = channels, rowStride = width * channels

    /// `lanes` input channels from `c` on (fewer at the end of a row of channels) as floats.
    @inline(__always) func load(_ p: UnsafePointer<Int8>, group: Int) -> FloatLanes {
        if group < fullGroups { return loadInt8AsFloat(UnsafeRawPointer(p)) }
        var v = FloatLanes(repeating: 0)
        for j in 0..<(channels - group * lanes) { v[j] = Float(p[j]) }
        return v
    }

    prepared.weights.withUnsafeBufferPointer { weightBuffer in
    prepared.requantization.withRequantizer { q in
        let weights = UnsafeRawPointer(weightBuffer.baseAddress!)
        @inline(__always) func tapWeights(_ group: Int, _ t: Int) -> FloatLanes {
            weights.loadUnaligned(fromByteOffset: (group * taps + t) * lanes * 4, as: FloatLanes.self)
        }
        for r in rows {
            let b = r / outputShape.height, oy = r % outputShape.height
            let iy0 = oy * sh - g.paddingHeight.before
            let rowInside = iy0 >= 0 && iy0 + (kh - 1) * dh < height
            let image = input + b * height * rowStride
            let outRow = output + r * outputShape.width * channels

            /// Channel groups `groups` of output pixel `ox`, checking every tap.
            @inline(__always) func border(_ ox: Int, _ groups: Range<Int>) {
                let ix0 = ox * sw - g.paddingWidth.before
                for group in groups {
                    let c = group * lanes
                    var acc = start
                    var t = 0
                    for ky in 0..<kh {
                        let iy = iy0 + ky * dh
                        for kx in 0..<kw {
                            let ix = ix0 + kx * dw
                            let x = iy >= 0 && iy < height && ix >= 0 && ix < width
                                ? load(image + iy * rowStride + ix * pixelStride + c, group: group) : padding
                            acc = multiplyAdd(acc, x, tapWeights(group, t))
                            t += 1
                        }
                    }
                    q.store(exactSums(acc), group: group, to: outRow + ox * channels + c, count: min(lanes, channels - c))
                }
            }

            var ox = 0
            while ox < outputShape.width {
                let ix0 = ox * sw - g.paddingWidth.before
                // Two neighbouring pixels whose taps all lie inside share each weight load and
                // give the multiply-adds two independent chains.
                guard rowInside, ox + 1 < outputShape.width, ix0 >= 0, ix0 + sw + (kw - 1) * dw < width else {
                    border(ox, 0..<groups)
                    ox += 1
                    continue
                }
                for group in 0..<fullGroups {
                    let c = group * lanes
                    var acc0 = start, acc1 = start
                    var t = 0
                    for ky in 0..<kh {
                        let p = image + (iy0 + ky * dh) * rowStride + ix0 * pixelStride + c
                        for kx in 0..<kw {
                            let w = tapWeights(group, t)
                            let x = p + kx * dw * pixelStride
                            acc0 = multiplyAdd(acc0, loadInt8AsFloat(UnsafeRawPointer(x)), w)
                            acc1 = multiplyAdd(acc1, loadInt8AsFloat(UnsafeRawPointer(x + sw * pixelStride)), w)
                            t += 1
                        }
                    }
                    q.store(exactSums(acc0), group: group, to: outRow + ox * channels + c, count: lanes)
                    q.store(exactSums(acc1), group: group, to: outRow + (ox + 1) * channels + c, count: lanes)
                }
                if fullGroups < groups {
                    border(ox, fullGroups..<groups)
                    border(ox + 1, fullGroups..<groups)
                }
                ox += 2
            }
        }
    }}
}
