/// An int8 CONV_2D prepared for the optimised path: the filter packed for ``int8GEMMTile`` and
/// the input zero-point correction folded into a per-channel bias
/// (`bias + inputOffset * sum(filter row)`), so the inner loop is a plain int8 GEMM. Built once
/// at prepare; results equal `quantizedConv2D` exactly.
public struct PreparedInt8Conv2D: Sendable {
    /// The reference parameters (geometry, rescale, clamp).
    public let params: QuantizedConvParams
    /// The filter's NHWC extents.
    public let filterShape: NHWC
    /// The filter, packed in blocks of output channels.
    let weights: Int8PackedWeights
    /// Bias, multipliers and clamp laid out per block of channels.
    let requantization: Int8Requantization

    /// The length of one filter row (`kernelHeight * kernelWidth * inputChannels`).
    public var depth: Int { filterShape.height * filterShape.width * filterShape.channels }

    /// Int8 elements of scratch space `conv2DInt8Optimized` needs when run on `threadCount`
    /// threads: one im2col tile of `Int8PackedWeights.tileRows` rows per thread (0 for a 1x1,
    /// stride-1, unpadded convolution, which reads the input in place).
    public func scratchCount(threadCount: Int) -> Int {
        isPointwise ? 0 : max(1, threadCount) * Int8PackedWeights.tileRows * depth
    }

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
        self.weights = Int8PackedWeights(rows: filter, channels: filterShape.batch, depth: depth)
        let folded = (0..<filterShape.batch).map { oc in
            var sum: Int32 = 0
            for k in 0..<depth { sum &+= Int32(filter[oc * depth + k]) }
            return (bias?[oc] ?? 0) &+ params.inputOffset &* sum
        }
        self.requantization = Int8Requantization(foldedBias: folded, multipliers: params.outputMultipliers,
                                                 outputOffset: params.outputOffset, activation: params.activation)
    }
}

/// Optimised int8 CONV_2D, bit-exact with `quantizedConv2D`: output pixels in tiles of
/// `Int8PackedWeights.tileRows`, each tile multiplied with every block of packed weights by
/// ``int8GEMMTile``. A 1x1 convolution reads its input rows in place; others gather each tile
/// into an im2col block, with padding taps set to the input zero point. Output pixels are split
/// across `pool`'s threads.
///
/// - Parameters:
///   - scratch: `prepared.scratchCount(threadCount: pool.threadCount)` int8 values of working
///     space (nil allowed when that count is 0).
///   - pool: the threads to run on; nil runs on the calling thread only.
public func conv2DInt8Optimized(
    _ prepared: PreparedInt8Conv2D,
    input: UnsafePointer<Int8>, inputShape: NHWC,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
    scratch: UnsafeMutablePointer<Int8>?, pool: ThreadPool? = nil
) {
    let pixels = outputShape.batch * outputShape.height * outputShape.width
    let tileCount = (pixels + Int8PackedWeights.tileRows - 1) / Int8PackedWeights.tileRows
    let run = { (thread: Int, tiles: Range<Int>) in
        let tileScratch = scratch.map { $0 + thread * Int8PackedWeights.tileRows * prepared.depth }
        conv2DInt8Tiles(prepared, tiles: tiles, input: input, inputShape: inputShape, output: output,
                        outputShape: outputShape, scratch: tileScratch)
    }
    if let pool, pool.threadCount > 1 {
        pool.parallelFor(count: tileCount, chunks: pool.threadCount, run)
    } else {
        run(0, 0..<tileCount)
    }
}

/// One thread's share of ``conv2DInt8Optimized``: the given tiles of output pixels.
private func conv2DInt8Tiles(
    _ prepared: PreparedInt8Conv2D, tiles: Range<Int>,
    input: UnsafePointer<Int8>, inputShape: NHWC,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
    scratch: UnsafeMutablePointer<Int8>?
) {
    let p = prepared.params, g = p.geometry
    let depth = prepared.depth, tileRows = Int8PackedWeights.tileRows, width = Int8PackedWeights.blockWidth
    let outputDepth = outputShape.channels
    let pixels = outputShape.batch * outputShape.height * outputShape.width
    let (kh, kw, channels) = (prepared.filterShape.height, prepared.filterShape.width, inputShape.channels)
    // Padding taps must contribute nothing: x = zeroPoint makes (x + inputOffset) zero, which is
    // what the folded bias assumes.
    let padValue = Int8(truncatingIfNeeded: -p.inputOffset)
    let pointwise = prepared.isPointwise
    let q = prepared.requantization

    /// The input row of output pixel `pixel` (im2col-gathered into `slot` of the scratch tile).
    func row(_ pixel: Int, slot: Int) -> UnsafePointer<Int8> {
        if pointwise { return input + pixel * channels }
        let s = scratch! + slot * depth
        let b = pixel / (outputShape.height * outputShape.width)
        let oy = (pixel / outputShape.width) % outputShape.height, ox = pixel % outputShape.width
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
        return UnsafePointer(s)
    }

    prepared.weights.values.withUnsafeBufferPointer { packed in
    q.bias.withUnsafeBufferPointer { bias in
    q.multiplier.withUnsafeBufferPointer { mult in
    q.leftShift.withUnsafeBufferPointer { left in
    q.rightShift.withUnsafeBufferPointer { right in
        let (b, m, ls, rs) = (bias.baseAddress!, mult.baseAddress!, left.baseAddress!, right.baseAddress!)
        for tile in tiles {
            let first = tile * tileRows
            let valid = min(tileRows, pixels - first)
            // A partial tile repeats its last row; the repeated results are not stored.
            let r0 = row(first, slot: 0)
            let r1 = valid > 1 ? row(first + 1, slot: 1) : r0
            let r2 = valid > 2 ? row(first + 2, slot: 2) : r1
            let r3 = valid > 3 ? row(first + 3, slot: 3) : r2
            let out = output + first * outputDepth
            for block in 0..<prepared.weights.blockCount {
                let sums = int8GEMMTile(r0, r1, r2, r3, weights: packed.baseAddress! + block * depth * width, depth: depth)
                let count = min(width, outputDepth - block * width)
                let o = out + block * width
                q.store(sums.0, block: block, to: o, count: count, b, m, ls, rs)
                if valid > 1 { q.store(sums.1, block: block, to: o + outputDepth, count: count, b, m, ls, rs) }
                if valid > 2 { q.store(sums.2, block: block, to: o + 2 * outputDepth, count: count, b, m, ls, rs) }
                if valid > 3 { q.store(sums.3, block: block, to: o + 3 * outputDepth, count: count, b, m, ls, rs) }
            }
        }
    }}}}}
}
