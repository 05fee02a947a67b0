/// An int8 CONV_2D prepared for the optimised path: the filter as `outputChannels` rows of
/// `kernelHeight * kernelWidth * inputChannels` values, and the input zero-point correction
/// folded into a per-channel bias (`bias + inputOffset * sum(filter row)`), so the inner loop is
/// a plain int8 dot product. Built once at prepare; results equal `quantizedConv2D` exactly.
public struct PreparedInt8Conv2D: Sendable {
    /// The reference parameters (geometry, rescale, clamp).
    public let params: QuantizedConvParams
    /// The filter's NHWC extents.
    public let filterShape: NHWC
    /// The filter rows, `[outputChannels][depth]`.
    let filter: [Int8]
    /// Bias with the input offset folded in, one per output channel.
    let foldedBias: [Int32]

    /// The length of one filter row (`kernelHeight * kernelWidth * inputChannels`).
    public var depth: Int { filterShape.height * filterShape.width * filterShape.channels }

    /// Int8 elements of scratch space `conv2DInt8Optimized` needs for this layer (one im2col
    /// row; 0 for a 1x1, stride-1, unpadded convolution, which reads the input in place).
    public var scratchCount: Int { isPointwise ? 0 : depth }

    var isPointwise: Bool {
        let g = params.geometry
        return filterShape.height == 1 && filterShape.width == 1 && g.strideHeight == 1 && g.strideWidth == 1
            && g.paddingHeight.before == 0 && g.paddingWidth.before == 0
    }

    /// Packs the filter and folds the bias. Requires symmetric weights (`filterOffset == 0`)
    /// and no grouping (`filterShape.channels` equal to the input's channels).
    public init(_ params: QuantizedConvParams, filter: UnsafePointer<Int8>, filterShape: NHWC, bias: UnsafePointer<Int32>?) {
        precondition(params.filterOffset == 0, "the optimised int8 path expects symmetric weights")
        self.params = params
        self.filterShape = filterShape
        let depth = filterShape.height * filterShape.width * filterShape.channels
        let rows = [Int8](UnsafeBufferPointer(start: filter, count: filterShape.batch * depth))
        self.filter = rows
        self.foldedBias = (0..<filterShape.batch).map { oc in
            var sum: Int32 = 0
            for k in 0..<depth { sum &+= Int32(rows[oc * depth + k]) }
            return (bias?[oc] ?? 0) &+ params.inputOffset &* sum
        }
    }
}

/// Optimised int8 CONV_2D (1x1 convolutions as a GEMM over the input in place, others through
/// an im2col row padded with the input zero point), bit-exact with `quantizedConv2D`.
///
/// - Parameters:
///   - scratch: `prepared.scratchCount` int8 values of working space.
public func conv2DInt8Optimized(
    _ prepared: PreparedInt8Conv2D,
    input: UnsafePointer<Int8>, inputShape: NHWC,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
    scratch: UnsafeMutablePointer<Int8>?
) {
    let p = prepared.params, g = p.geometry
    let depth = prepared.depth
    let outputDepth = outputShape.channels
    let (kh, kw, channels) = (prepared.filterShape.height, prepared.filterShape.width, inputShape.channels)
    // Padding taps must contribute nothing: x = zeroPoint makes (x + inputOffset) zero, which is
    // what the folded bias assumes.
    let padValue = Int8(truncatingIfNeeded: -p.inputOffset)
    prepared.filter.withUnsafeBufferPointer { filterBuffer in
        let filter = filterBuffer.baseAddress!
        for b in 0..<outputShape.batch {
            for oy in 0..<outputShape.height {
                for ox in 0..<outputShape.width {
                    let row: UnsafePointer<Int8>
                    if prepared.isPointwise {
                        row = input + ((b * inputShape.height + oy) * inputShape.width + ox) * channels
                    } else {
                        let s = scratch!
                        var k = 0
                        for ky in 0..<kh {
                            let iy = oy * g.strideHeight - g.paddingHeight.before + ky * g.dilationHeight
                            for kx in 0..<kw {
                                let ix = ox * g.strideWidth - g.paddingWidth.before + kx * g.dilationWidth
                                if iy < 0 || iy >= inputShape.height || ix < 0 || ix >= inputShape.width {
                                    (s + k).update(repeating: padValue, count: channels)
                                } else {
                                    (s + k).update(from: input + ((b * inputShape.height + iy) * inputShape.width + ix) * channels, count: channels)
                                }
                                k += channels
                            }
                        }
                        row = UnsafePointer(s)
                    }
                    let out = output + ((b * outputShape.height + oy) * outputShape.width + ox) * outputDepth
                    var oc = 0
                    while oc + 4 <= outputDepth {
                        let sums = int8DotProduct4(row, rows: filter + oc * depth, rowStride: depth, count: depth)
                        for j in 0..<4 {
                            out[oc + j] = requantizeAccumulator(sums[j], channel: oc + j, prepared.foldedBias, p)
                        }
                        oc += 4
                    }
                    while oc < outputDepth {
                        let sum = int8DotProduct(row, filter + oc * depth, count: depth)
                        out[oc] = requantizeAccumulator(sum, channel: oc, prepared.foldedBias, p)
                        oc += 1
                    }
                }
            }
        }
    }
}

/// The shared tail of the optimised int8 paths: folded bias, per-channel rescale, output
/// offset, clamp.
@inline(__always)
func requantizeAccumulator(_ sum: Int32, channel: Int, _ foldedBias: [Int32], _ p: QuantizedConvParams) -> Int8 {
    let acc = p.outputMultipliers[channel].apply(sum &+ foldedBias[channel]) &+ p.outputOffset
    return Int8(clampedQuantized: p.activation.clamp(acc))
}
