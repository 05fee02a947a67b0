#if TFLITE_ISA_MODULE
import Kernels
#endif
#if TFLITE_VNNI
/// An int8 CONV_2D prepared for ``Int8QuadGEMM`` (the AVX-512 VNNI variant): the filter packed
/// in depth quads, and into the per-channel bias both the input zero point and the 128 that the
/// kernel's offset input bytes add: `bias + (inputOffset - 128) * sum(filter row)`. Built once
/// at prepare; results equal `Conv2D.Quantized.reference` exactly.
struct PreparedInt8QuadConv2D: Sendable {
    /// The reference parameters (geometry, rescale, clamp).
    let params: QuantizedConvParams
    /// The filter's NHWC extents.
    let filterShape: NHWC
    /// The filter, packed in blocks of output channels.
    let weights: Int8QuadPackedWeights
    /// Bias, multipliers and clamp laid out per block of channels.
    let requantization: Int8Requantization

    /// Bytes of one gathered input row: the depth rounded up to whole quads.
    var rowStride: Int { weights.quadCount * 4 }

    /// Whether the layer's im2col rows are its input pixels, whole quads long, which the kernel
    /// reads in place without gathering.
    let readsInputInPlace: Bool

    /// Bytes of one thread's working space: a tile of gathered rows and its int32 sums, rounded
    /// to whole cache lines so threads do not share one.
    var threadScratchBytes: Int {
        let bytes = Int8QuadGEMM.tileRows * rowStride + Int8QuadGEMM.tileRows * 64 * Int8QuadGEMM.tileBlocks
        return (bytes + 63) / 64 * 64
    }

    /// Bytes of scratch space ``Conv2D/Quantized/quads`` needs when run on `threadCount` threads.
    func scratchCount(threadCount: Int) -> Int { max(1, threadCount) * threadScratchBytes + 64 }

    /// Packs the filter and folds the bias. Requires symmetric weights (`filterOffset == 0`)
    /// and no grouping. Nil when a rescale has no vector form (see ``Int8Requantization``).
    init?(_ params: QuantizedConvParams, filter: UnsafePointer<Int8>, filterShape: NHWC, bias: UnsafePointer<Int32>?) {
        precondition(params.filterOffset == 0, "the optimised int8 path expects symmetric weights")
        let depth = filterShape.height * filterShape.width * filterShape.channels
        guard let requantization = Int8Requantization(weightSums: int8RowSums(filter, count: filterShape.batch, length: depth),
                                                      bias: bias, convolution: params, inputBias: 128)
        else { return nil }
        self.requantization = requantization
        self.params = params
        self.filterShape = filterShape
        self.weights = Int8QuadPackedWeights(rows: filter, channels: filterShape.batch, depth: depth)
        readsInputInPlace = depth % 4 == 0
            && Conv2D.isPointwise(geometry: params.geometry, filterShape: filterShape)
    }
}

extension Conv2D.Quantized {
    /// Optimised int8 CONV_2D on `vpdpbusd`, bit-exact with `Conv2D.Quantized.reference`: output pixels in
    /// tiles of ``Int8QuadGEMM/tileRows``; each tile's input rows are gathered (im2col, padding taps
    /// set to the input zero point) unless they are the input pixels themselves, then multiplied with every block of packed
    /// weights and requantised a vector at a time. Tiles are split across `pool`'s threads.
    ///
    /// - Parameters:
    ///   - scratch: `prepared.scratchCount(threadCount: pool.threadCount)` bytes of working space.
    ///   - pool: the threads to run on; nil runs on the calling thread only.
    static func quads(
        _ prepared: PreparedInt8QuadConv2D,
        input: UnsafePointer<Int8>, inputShape: NHWC,
        output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
        scratch: UnsafeMutablePointer<Int8>?, pool: ThreadPool? = nil
    ) {
        let pixels = outputShape.batch * outputShape.height * outputShape.width
        let tileCount = (pixels + Int8QuadGEMM.tileRows - 1) / Int8QuadGEMM.tileRows
        Int8TileDriver.splitTiles(tileCount, pool: pool, base: Int8TileDriver.aligned(scratch),
                                  threadScratchBytes: prepared.threadScratchBytes) {
            conv2DInt8QuadTiles(prepared, tiles: $0, input: input, inputShape: inputShape, output: output,
                                outputShape: outputShape, scratch: $1)
        }
    }
}

/// One thread's share of ``Conv2D/Quantized/quads``: the given tiles of output pixels.
private func conv2DInt8QuadTiles(
    _ prepared: PreparedInt8QuadConv2D, tiles: Range<Int>,
    input: UnsafePointer<Int8>, inputShape: NHWC,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
    scratch: UnsafeMutableRawPointer
) {
    let p = prepared.params
    let stride = prepared.rowStride, tileRows = Int8QuadGEMM.tileRows
    let depth = prepared.weights.depth, quads = prepared.weights.quadCount
    let outputDepth = outputShape.channels
    let pixels = outputShape.batch * outputShape.height * outputShape.width
    let window = Int8WindowGather(geometry: p.geometry, filterShape: prepared.filterShape, inputShape: inputShape)
    // Padding taps hold the zero point, as the folded bias assumes.
    let padValue = Int8(truncatingIfNeeded: -p.inputOffset)
    let rows = scratch.bindMemory(to: Int8.self, capacity: tileRows * stride)
    let sums = scratch + tileRows * stride
    // The bytes that round the depth up to a quad meet zero weights; they are zeroed once so
    // that no uninitialised byte is read.
    if stride > depth {
        for r in 0..<tileRows { (rows + r * stride + depth).update(repeating: 0, count: stride - depth) }
    }

    prepared.weights.values.withUnsafeBufferPointer { packed in
    prepared.requantization.withRequantizer { q in
        for tile in tiles {
            let first = tile * tileRows
            let valid = min(tileRows, pixels - first)
            let a: UnsafePointer<Int8>, lda: Int
            if prepared.readsInputInPlace {
                (a, lda) = (input + first * depth, depth)
            } else {
                var at = OutputPixelWalk(first: first, shape: outputShape)
                for r in 0..<valid {
                    window.gather(input, pixel: first + r, at.b, at.oy, at.ox, into: rows + r * stride, pad: padValue) {
                        $2.update(from: $0, count: $1)
                    }
                    at.advance()
                }
                (a, lda) = (UnsafePointer(rows), stride)
            }
            let panelStride = quads * 64
            Int8TileDriver.requantizeBlocks(q, blockCount: prepared.weights.blockCount, tileBlocks: Int8QuadGEMM.tileBlocks,
                                            tileRows: tileRows, rowCount: valid, sums: sums,
                                            to: output + first * outputDepth, outputDepth: outputDepth) { block, blocks in
                Int8QuadGEMM.tileSums(a: a, lda: lda, rowCount: valid, quads: quads,
                                      panel: packed.baseAddress! + block * panelStride, panelStride: panelStride,
                                      blocks: blocks, sums: sums)
            }
        }
    }}
}
#endif
