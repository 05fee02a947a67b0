#if TFLITE_ISA_MODULE
import Kernels
#endif
/// The packed filter and window of a CONV_2D on ``Int8GEMM``, whatever becomes of its sums
/// (see ``Int8ConvolutionLayout``). The filter is widened to int16 and packed in depth pairs,
/// and the kernel multiplies raw int8 values. Built once at prepare.
struct Int8PairConvLayout: Int8TiledConvolutionLayout {
    /// The kernel reads the input values as they are.
    static let inputBias: Int32 = 0
    let geometry: ConvGeometry
    /// The filter's NHWC extents.
    let filterShape: NHWC
    /// The filter, packed in blocks of output channels.
    let weights: Int8PackedWeights
    /// The sum of each output channel's weights.
    let weightSums: [Int32]

    /// Packs a filter of symmetric weights for a convolution that is not grouped.
    init(geometry: ConvGeometry, filter: UnsafePointer<Int8>, filterShape: NHWC) {
        let depth = filterShape.height * filterShape.width * filterShape.channels
        self.geometry = geometry
        self.filterShape = filterShape
        weights = Int8PackedWeights(rows: filter, channels: filterShape.batch, depth: depth)
        weightSums = int8RowSums(filter, count: filterShape.batch, length: depth)
    }

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

    static var tileRows: Int { Int8GEMM.gatheredTileRows }
    static var tileBlocks: Int { Int8GEMM.tileBlocks }
    var blockCount: Int { weights.blockCount }

    /// A thread's tiles: each tile's input rows are gathered (im2col) and widened to int16
    /// once, then multiplied with every block of packed weights, and `store` converts the sums
    /// a vector at a time.
    func convolveTiles<Store: Int8SumsStore>(_ tiles: Range<Int>, blocks: Range<Int>, input: UnsafePointer<Int8>, inputShape: NHWC,
                                             zeroPoint: Int8, store: Store, output: UnsafeMutablePointer<Store.Element>, outputShape: NHWC,
                                             scratch: UnsafeMutableRawPointer) {
        let stride = rowStride, tileRows = Int8GEMM.gatheredTileRows, lanes = int8LaneCount
        let pairs = weights.pairCount, depth = depth, gatheredStride = gatheredStride
        let outputDepth = outputShape.channels
        let pixels = outputShape.batch * outputShape.height * outputShape.width
        let window = Int8WindowGather(geometry: geometry, filterShape: filterShape, inputShape: inputShape)
        // Padding taps hold the zero point, which contributes nothing once the store's
        // correction is applied.
        let padValue = Int16(zeroPoint)
        let rows = scratch.bindMemory(to: Int16.self, capacity: tileRows * stride)
        let sums = scratch + tileRows * stride * 2
        // Splatted rows are gathered plain into a staging row first: a pair may join a padding
        // value and an input value.
        let staging = (sums + tileRows * lanes * 4 * Int8GEMM.tileBlocks).bindMemory(to: Int16.self, capacity: gatheredStride)

        /// Converts the input row of output pixel `pixel` into row `slot`. An odd depth's last
        /// pair gets a zero partner (its weight is zero too).
        @inline(__always) func gather(_ pixel: Int, _ at: OutputPixelWalk, slot: Int) {
            let s = Int8GEMM.pairCopies > 1 ? staging : rows + slot * stride
            if gatheredStride > depth { s[depth] = 0 }
            window.gather(input, pixel: pixel, at.b, at.oy, at.ox, into: s, pad: padValue) {
                Int8GEMM.convert($0, count: $1, to: $2)
            }
            if Int8GEMM.pairCopies > 1 { Int8GEMM.splatPairs(staging, pairs: pairs, into: rows + slot * stride) }
        }

        weights.values.withUnsafeBufferPointer { packed in
            for tile in tiles {
                let first = tile * tileRows
                let valid = min(tileRows, pixels - first)
                var at = OutputPixelWalk(first: first, shape: outputShape)
                for r in 0..<valid {
                    gather(first + r, at, slot: r)
                    at.advance()
                }
                let panelStride = gatheredStride * lanes
                Int8TileDriver.storeBlocks(store, blocks: blocks, tileBlocks: Int8GEMM.tileBlocks,
                                           tileRows: tileRows, rowCount: valid, sums: sums,
                                           to: output + first * outputDepth, outputDepth: outputDepth) { block, blocks, _, sums, _ in
                    Int8GEMM.tileSums(a: rows, lda: stride, rowCount: valid, pairs: pairs,
                                      panel: packed.baseAddress! + block * panelStride, panelStride: panelStride,
                                      blocks: blocks, sums: sums)
                }
            }
        }
    }
}

/// An int8 CONV_2D prepared for the optimised path: the gathered tiles of ``Int8PairConvLayout``,
/// or for a small-channel layer the layout that reads windows in place instead of im2col.
/// Results equal `Conv2D.Quantized.reference` exactly.
struct PreparedInt8Conv2D: Sendable {
    let gathered: RequantizedConvolution<Int8PairConvLayout>
    /// The small-channel layout, for layers that read windows in place instead of im2col.
    let direct: Int8DirectRowsLayout?

    /// Bytes (int8 elements) of scratch space `Conv2D.Quantized.optimized` needs when run on
    /// `threadCount` threads.
    func scratchCount(outputShape: NHWC, threadCount: Int) -> Int {
        if let direct {
            return (direct.imageCount * 2 + 63) / 64 * 64 + max(1, threadCount) * Int8DirectRowsLayout.sumsBytes + 64
        }
        return gathered.scratchBytes(outputShape: outputShape, threadCount: threadCount)
    }

    /// Packs the filter and folds the bias for a layer from `inputShape` to `outputShape`.
    /// Requires symmetric weights (`filterOffset == 0`) and no grouping (`filterShape.channels`
    /// equal to the input's channels). Nil when a rescale has no vector form (a negative
    /// multiplier, see ``Int8Requantization``).
    init?(_ params: QuantizedConvParams, filter: UnsafePointer<Int8>, filterShape: NHWC, bias: UnsafePointer<Int32>?,
          inputShape: NHWC, outputShape: NHWC) {
        guard let gathered = RequantizedConvolution(Int8PairConvLayout(geometry: params.geometry, filter: filter, filterShape: filterShape),
                                                    params: params, bias: bias) else { return nil }
        self.gathered = gathered
        self.direct = Int8DirectRowsLayout.applies(params.geometry, filterShape: filterShape)
            ? Int8DirectRowsLayout(geometry: params.geometry, filter: filter, filterShape: filterShape,
                                   inputShape: inputShape, outputShape: outputShape)
            : nil
    }
}

extension Conv2D.Quantized {
    /// Optimised int8 CONV_2D, bit-exact with `Conv2D.Quantized.reference`: the small-channel
    /// layout where it applies, else the gathered tiles of ``Int8PairConvLayout``.
    ///
    /// - Parameters:
    ///   - scratch: `prepared.scratchCount(outputShape:threadCount:)` bytes of working space.
    ///   - pool: the threads to run on; nil runs on the calling thread only.
    static func optimized(
        _ prepared: PreparedInt8Conv2D,
        input: UnsafePointer<Int8>, inputShape: NHWC,
        output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
        scratch: UnsafeMutablePointer<Int8>?, pool: ThreadPool? = nil
    ) {
        if let direct = prepared.direct, direct.input == inputShape {
            Conv2D.Quantized.directRows(prepared.gathered, layout: direct, input: input, output: output, outputShape: outputShape,
                                        scratch: Int8TileDriver.aligned(scratch), pool: pool)
            return
        }
        prepared.gathered.run(input: input, inputShape: inputShape, output: output, outputShape: outputShape, scratch: scratch,
                              pool: pool)
    }
}
