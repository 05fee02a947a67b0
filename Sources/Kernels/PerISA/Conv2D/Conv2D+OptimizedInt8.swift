#if TFLITE_ISA_MODULE
import Kernels
#endif
/// An int8 CONV_2D prepared for the optimised path: the filter widened to int16 and packed
/// in depth pairs for ``Int8GEMM``, and the input zero-point correction folded into a per-channel bias
/// (`bias + inputOffset * sum(filter row)`), so the inner loop is a plain product of raw int8
/// values. Built once at prepare; results equal `Conv2D.Quantized.reference` exactly.
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

    /// Bytes (int8 elements) of scratch space `Conv2D.Quantized.optimized` needs when run on
    /// `threadCount` threads.
    func scratchCount(threadCount: Int) -> Int {
        if let direct {
            return (direct.imageCount * 2 + 63) / 64 * 64 + max(1, threadCount) * Int8DirectRowsLayout.sumsBytes + 64
        }
        return max(1, threadCount) * threadScratchBytes + 64
    }

    /// Packs the filter and folds the bias for a layer from `inputShape` to `outputShape`.
    /// Requires symmetric weights (`filterOffset == 0`) and no grouping (`filterShape.channels`
    /// equal to the input's channels). Nil when a rescale has no vector form (a negative
    /// multiplier, see ``Int8Requantization``).
    init?(_ params: QuantizedConvParams, filter: UnsafePointer<Int8>, filterShape: NHWC, bias: UnsafePointer<Int32>?,
          inputShape: NHWC, outputShape: NHWC) {
        precondition(params.filterOffset == 0, "the optimised int8 path expects symmetric weights")
        let depth = filterShape.height * filterShape.width * filterShape.channels
        let sums = int8RowSums(filter, count: filterShape.batch, length: depth)
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

extension Conv2D.Quantized {
    /// Optimised int8 CONV_2D, bit-exact with `Conv2D.Quantized.reference`: output pixels in tiles of
    /// `Int8GEMM.gatheredTileRows`; each tile's input rows are gathered (im2col, padding taps set
    /// to the input zero point) and widened to int16 once, then multiplied with every block of
    /// packed weights and requantised a vector at a time. Tiles are split across `pool`'s threads.
    ///
    /// - Parameters:
    ///   - scratch: `prepared.scratchCount(threadCount: pool.threadCount)` bytes of working space.
    ///   - pool: the threads to run on; nil runs on the calling thread only.
    static func optimized(
        _ prepared: PreparedInt8Conv2D,
        input: UnsafePointer<Int8>, inputShape: NHWC,
        output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
        scratch: UnsafeMutablePointer<Int8>?, pool: ThreadPool? = nil
    ) {
        let pixels = outputShape.batch * outputShape.height * outputShape.width
        let tileCount = (pixels + Int8GEMM.gatheredTileRows - 1) / Int8GEMM.gatheredTileRows
        let base = Int8TileDriver.aligned(scratch)
        if let direct = prepared.direct, direct.input == inputShape {
            Conv2D.Quantized.directRows(prepared, layout: direct, input: input, output: output, outputShape: outputShape,
                                        scratch: base, pool: pool)
            return
        }
        Int8TileDriver.splitTiles(tileCount, pool: pool, base: base, threadScratchBytes: prepared.threadScratchBytes) {
            conv2DInt8Tiles(prepared, tiles: $0, input: input, inputShape: inputShape, output: output, outputShape: outputShape,
                            scratch: $1)
        }
    }
}

/// One thread's share of ``Conv2D/Quantized/optimized``: the given tiles of output pixels.
private func conv2DInt8Tiles(
    _ prepared: PreparedInt8Conv2D, tiles: Range<Int>,
    input: UnsafePointer<Int8>, inputShape: NHWC,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
    scratch: UnsafeMutableRawPointer
) {
    let p = prepared.params
    let stride = prepared.rowStride, tileRows = Int8GEMM.gatheredTileRows, lanes = int8LaneCount
    let pairs = prepared.weights.pairCount
    let outputDepth = outputShape.channels
    let pixels = outputShape.batch * outputShape.height * outputShape.width
    let window = Int8WindowGather(geometry: p.geometry, filterShape: prepared.filterShape, inputShape: inputShape)
    // Padding taps must contribute nothing: x = zeroPoint makes (x + inputOffset) zero, which is
    // what the folded bias assumes.
    let padValue = Int16(-p.inputOffset)
    let rows = scratch.bindMemory(to: Int16.self, capacity: tileRows * stride)
    let sums = scratch + tileRows * stride * 2
    // Splatted rows are gathered plain into a staging row first: a pair may join a padding
    // value and an input value.
    let staging = (sums + tileRows * lanes * 4 * Int8GEMM.tileBlocks)
        .bindMemory(to: Int16.self, capacity: prepared.gatheredStride)

    /// Converts the input row of output pixel `pixel` into row `slot`. An odd depth's last
    /// pair gets a zero partner (its weight is zero too).
    @inline(__always) func gather(_ pixel: Int, _ at: OutputPixelWalk, slot: Int) {
        let s = Int8GEMM.pairCopies > 1 ? staging : rows + slot * stride
        if prepared.gatheredStride > prepared.depth { s[prepared.depth] = 0 }
        window.gather(input, pixel: pixel, at.b, at.oy, at.ox, into: s, pad: padValue) {
            Int8GEMM.convert($0, count: $1, to: $2)
        }
        if Int8GEMM.pairCopies > 1 { Int8GEMM.splatPairs(staging, pairs: pairs, into: rows + slot * stride) }
    }

    prepared.weights.values.withUnsafeBufferPointer { packed in
    prepared.requantization.withRequantizer { q in
        for tile in tiles {
            let first = tile * tileRows
            let valid = min(tileRows, pixels - first)
            var at = OutputPixelWalk(first: first, shape: outputShape)
            for r in 0..<valid {
                gather(first + r, at, slot: r)
                at.advance()
            }
            let panelStride = prepared.gatheredStride * lanes
            Int8TileDriver.requantizeBlocks(q, blockCount: prepared.weights.blockCount, tileBlocks: Int8GEMM.tileBlocks,
                                            tileRows: tileRows, rowCount: valid, sums: sums,
                                            to: output + first * outputDepth, outputDepth: outputDepth) { block, blocks in
                Int8GEMM.tileSums(a: rows, lda: stride, rowCount: valid, pairs: pairs,
                                  panel: packed.baseAddress! + block * panelStride, panelStride: panelStride,
                                  blocks: blocks, sums: sums)
            }
        }
    }}
}
