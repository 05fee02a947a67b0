#if TFLITE_ISA_MODULE
import Kernels
#endif
/// An int8 CONV_2D prepared for the optimised path: the filter widened to int16 and packed
/// in depth pairs for ``Int8GEMM``, and the input zero-point correction folded into a per-channel bias
/// (`bias + inputOffset * sum(filter row)`), so the inner loop is a plain product of raw int8
/// values. Built once at prepare; results equal `quantizedConv2D` exactly.
struct PreparedInt8Conv2D: Sendable {
    /// The reference parameters (geometry, rescale, clamp).
    let params: QuantizedConvParams
    /// The filter's NHWC extents.
    let filterShape: NHWC
    /// The filter, packed in blocks of output channels.
    let weights: Int8PackedWeights
    /// Bias, multipliers and clamp laid out per block of channels.
    let requantization: Int8Requantization
    /// The small-channel layout, for layers that read windows in place instead of im2col.
    let direct: Int8DirectRowsLayout?

    /// The length of one filter row (`kernelHeight * kernelWidth * inputChannels`).
    var depth: Int { filterShape.height * filterShape.width * filterShape.channels }

    /// The int16 values of one input row as gathered: `depth` rounded up to even (pairs).
    var gatheredStride: Int { weights.pairCount * 2 }
    /// The int16 values of one row of a tile: the gathered row with each pair stored
    /// `Int8GEMM.pairCopies` times.
    var rowStride: Int { gatheredStride * Int8GEMM.pairCopies }

    /// Bytes of one thread's working space: a tile of input rows as int16, the tile's int32
    /// sums, and with splatted rows the one row being gathered. Rounded to whole cache lines
    /// so threads do not share one.
    var threadScratchBytes: Int {
        let staging = Int8GEMM.pairCopies > 1 ? gatheredStride * 2 : 0
        let tile = Int8GEMM.gatheredTileRows
        let bytes = tile * rowStride * 2 + tile * int8LaneCount * 4 * Int8GEMM.tileBlocks + staging
        return (bytes + 63) / 64 * 64
    }

    /// Bytes (int8 elements) of scratch space `conv2DInt8Optimized` needs when run on
    /// `threadCount` threads.
    func scratchCount(threadCount: Int) -> Int {
        if let direct {
            return (direct.imageCount * 2 + 63) / 64 * 64 + max(1, threadCount) * Int8DirectRowsLayout.sumsBytes + 64
        }
        return max(1, threadCount) * threadScratchBytes + 64
    }

    var isPointwise: Bool {
        let g = params.geometry
        return filterShape.height == 1 && filterShape.width == 1 && g.strideHeight == 1 && g.strideWidth == 1
            && g.paddingHeight.before == 0 && g.paddingWidth.before == 0
    }

    /// Packs the filter and folds the bias for a layer from `inputShape` to `outputShape`.
    /// Requires symmetric weights (`filterOffset == 0`) and no grouping (`filterShape.channels`
    /// equal to the input's channels). Nil when a rescale has no vector form (a negative
    /// multiplier, see ``Int8Requantization``).
    init?(_ params: QuantizedConvParams, filter: UnsafePointer<Int8>, filterShape: NHWC, bias: UnsafePointer<Int32>?,
          inputShape: NHWC, outputShape: NHWC) {
        precondition(params.filterOffset == 0, "the optimised int8 path expects symmetric weights")
        let depth = filterShape.height * filterShape.width * filterShape.channels
        let sums = (0..<filterShape.batch).map { oc in
            var sum: Int32 = 0
            for k in 0..<depth { sum &+= Int32(filter[oc * depth + k]) }
            return sum
        }
        guard let requantization = Int8Requantization(weightSums: sums, bias: bias, convolution: params) else { return nil }
        self.requantization = requantization
        self.params = params
        self.filterShape = filterShape
        self.weights = Int8PackedWeights(rows: filter, channels: filterShape.batch, depth: depth)
        self.direct = Int8DirectRowsLayout.applies(params.geometry, filterShape: filterShape)
            ? Int8DirectRowsLayout(geometry: params.geometry, filter: filter, filterShape: filterShape,
                                   inputShape: inputShape, outputShape: outputShape)
            : nil
    }
}

/// Optimised int8 CONV_2D, bit-exact with `quantizedConv2D`: output pixels in tiles of
/// `Int8GEMM.gatheredTileRows`; each tile's input rows are gathered (im2col, padding taps set
/// to the input zero point) and widened to int16 once, then multiplied with every block of
/// packed weights and requantised a vector at a time. Tiles are split across `pool`'s threads.
///
/// - Parameters:
///   - scratch: `prepared.scratchCount(threadCount: pool.threadCount)` bytes of working space.
///   - pool: the threads to run on; nil runs on the calling thread only.
func conv2DInt8Optimized(
    _ prepared: PreparedInt8Conv2D,
    input: UnsafePointer<Int8>, inputShape: NHWC,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
    scratch: UnsafeMutablePointer<Int8>?, pool: ThreadPool? = nil
) {
    let pixels = outputShape.batch * outputShape.height * outputShape.width
    let tileCount = (pixels + Int8GEMM.gatheredTileRows - 1) / Int8GEMM.gatheredTileRows
    // Start at the first 64-byte boundary: rows are read as 32-bit pairs, sums as vectors.
    let raw = UnsafeMutableRawPointer(scratch!)
    let base = raw + (64 - Int(bitPattern: raw) & 63) & 63
    if let direct = prepared.direct, direct.input == inputShape {
        conv2DInt8DirectRows(prepared, layout: direct, input: input, output: output, outputShape: outputShape,
                             scratch: base, pool: pool)
        return
    }
    if let pool, pool.threadCount > 1 {
        pool.parallelFor(count: tileCount, chunks: pool.threadCount) { thread, tiles in
            conv2DInt8Tiles(prepared, tiles: tiles, input: input, inputShape: inputShape, output: output,
                            outputShape: outputShape, scratch: base + thread * prepared.threadScratchBytes)
        }
    } else {
        conv2DInt8Tiles(prepared, tiles: 0..<tileCount, input: input, inputShape: inputShape, output: output,
                        outputShape: outputShape, scratch: base)
    }
}

/// One thread's share of ``conv2DInt8Optimized``: the given tiles of output pixels.
private func conv2DInt8Tiles(
    _ prepared: PreparedInt8Conv2D, tiles: Range<Int>,
    input: UnsafePointer<Int8>, inputShape: NHWC,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
    scratch: UnsafeMutableRawPointer
) {
    let p = prepared.params, g = p.geometry
    let depth = prepared.depth, stride = prepared.rowStride, tileRows = Int8GEMM.gatheredTileRows, lanes = int8LaneCount
    let pairs = prepared.weights.pairCount
    let outputDepth = outputShape.channels
    let pixels = outputShape.batch * outputShape.height * outputShape.width
    let (kh, kw, channels) = (prepared.filterShape.height, prepared.filterShape.width, inputShape.channels)
    // Padding taps must contribute nothing: x = zeroPoint makes (x + inputOffset) zero, which is
    // what the folded bias assumes.
    let padValue = Int16(-p.inputOffset)
    let pointwise = prepared.isPointwise
    let rows = scratch.bindMemory(to: Int16.self, capacity: tileRows * stride)
    let sums = scratch + tileRows * stride * 2
    // Splatted rows are gathered plain into a staging row first: a pair may join a padding
    // value and an input value.
    let staging = (sums + tileRows * lanes * 4 * Int8GEMM.tileBlocks)
        .bindMemory(to: Int16.self, capacity: prepared.gatheredStride)

    /// Converts the input row of output pixel `pixel`, at (`b`, `oy`, `ox`), im2col-gathered,
    /// into row `slot`. An odd depth's last pair gets a zero partner (its weight is zero too).
    @inline(__always) func gather(_ pixel: Int, _ b: Int, _ oy: Int, _ ox: Int, slot: Int) {
        if Int8GEMM.pairCopies > 1 {
            gatherPlain(pixel, b, oy, ox, into: staging)
            Int8GEMM.splatPairs(staging, pairs: pairs, into: rows + slot * stride)
        } else {
            gatherPlain(pixel, b, oy, ox, into: rows + slot * stride)
        }
    }

    /// The gathered row of output pixel `pixel` as `depth` int16 values (plus a zero to end
    /// an odd depth's last pair) at `s`.
    @inline(__always) func gatherPlain(_ pixel: Int, _ b: Int, _ oy: Int, _ ox: Int, into s: UnsafeMutablePointer<Int16>) {
        if prepared.gatheredStride > depth { s[depth] = 0 }
        if pointwise {
            Int8GEMM.convert(input + pixel * channels, count: channels, to: s)
            return
        }
        let ix0 = ox * g.strideWidth - g.paddingWidth.before
        var k = 0
        for ky in 0..<kh {
            let iy = oy * g.strideHeight - g.paddingHeight.before + ky * g.dilationHeight
            let rowInside = iy >= 0 && iy < inputShape.height
            if g.dilationWidth == 1 {
                // Undilated taps of one filter row are adjacent input pixels: one conversion
                // for the in-bounds run (a 3-channel first layer would otherwise convert 3
                // values per call).
                let first = rowInside ? min(max(0, -ix0), kw) : kw
                let end = rowInside ? max(first, min(kw, inputShape.width - ix0)) : first
                if first > 0 { (s + k).update(repeating: padValue, count: first * channels) }
                if end > first {
                    Int8GEMM.convert(input + ((b * inputShape.height + iy) * inputShape.width + ix0 + first) * channels,
                                     count: (end - first) * channels, to: s + k + first * channels)
                }
                if end < kw { (s + k + end * channels).update(repeating: padValue, count: (kw - end) * channels) }
                k += kw * channels
                continue
            }
            for kx in 0..<kw {
                let ix = ix0 + kx * g.dilationWidth
                if !rowInside || ix < 0 || ix >= inputShape.width {
                    (s + k).update(repeating: padValue, count: channels)
                } else {
                    Int8GEMM.convert(input + ((b * inputShape.height + iy) * inputShape.width + ix) * channels,
                                     count: channels, to: s + k)
                }
                k += channels
            }
        }
    }

    prepared.weights.values.withUnsafeBufferPointer { packed in
    prepared.requantization.withRequantizer { q in
        for tile in tiles {
            let first = tile * tileRows
            let valid = min(tileRows, pixels - first)
            // Output coordinates advance incrementally instead of by three divisions a pixel.
            var ox = first % outputShape.width
            var oy = (first / outputShape.width) % outputShape.height
            var b = first / (outputShape.width * outputShape.height)
            for r in 0..<valid {
                gather(first + r, b, oy, ox, slot: r)
                ox += 1
                if ox == outputShape.width {
                    ox = 0
                    oy += 1
                    if oy == outputShape.height { oy = 0; b += 1 }
                }
            }
            let out = output + first * outputDepth
            let panelStride = prepared.gatheredStride * lanes
            var block = 0
            while block < prepared.weights.blockCount {
                let blocks = min(Int8GEMM.tileBlocks, prepared.weights.blockCount - block)
                Int8GEMM.tileSums(a: rows, lda: stride, rowCount: valid, pairs: pairs,
                                  panel: packed.baseAddress! + block * panelStride, panelStride: panelStride,
                                  blocks: blocks, sums: sums)
                for j in 0..<blocks {
                    let group = block + j
                    q.store(rows: sums + j * tileRows * lanes * 4, sumStride: lanes * 4, rowCount: valid, group: group,
                            to: out + group * lanes, outStride: outputDepth, count: min(lanes, outputDepth - group * lanes))
                }
                block += blocks
            }
        }
    }}
}
