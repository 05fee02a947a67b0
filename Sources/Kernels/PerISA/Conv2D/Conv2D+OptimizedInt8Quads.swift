#if TFLITE_ISA_MODULE
import Kernels
#endif
#if TFLITE_VNNI
/// The packed filter and window of a CONV_2D on ``Int8QuadGEMM`` (the AVX-512 VNNI variant),
/// whatever becomes of its sums (see ``Int8ConvolutionLayout``). Built once at prepare.
struct Int8QuadConvLayout: Int8TiledConvolutionLayout {
    /// The kernel flips each input byte's sign bit, reading int8 `x` as the uint8 `x + 128`.
    static let inputBias: Int32 = 128
    let geometry: ConvGeometry
    /// The filter's NHWC extents.
    let filterShape: NHWC
    /// The filter, packed in blocks of output channels.
    let weights: Int8QuadPackedWeights
    /// The sum of each output channel's weights: the kernel's offset input bytes add `128` times
    /// it to every sum, and the input's zero point takes off as much again.
    let weightSums: [Int32]
    /// Whether the layer's im2col rows are its input pixels, whole quads long, which the kernel
    /// reads in place without gathering.
    let readsInputInPlace: Bool

    /// Bytes of one gathered input row: the depth rounded up to whole quads.
    var rowStride: Int { weights.quadCount * 4 }

    /// Tiles whose sums are requantised together: a layer that reads its input in place keeps
    /// the sums of a run of tiles, so each group's requantisation constants are loaded once
    /// per run (once per tile, they were a fifth of the store's instructions on the shallow
    /// layers); a gathered layer would need as many gathered tiles, and keeps one.
    var tilesPerRun: Int { readsInputInPlace ? 8 : 1 }

    /// Bytes of one thread's working space: a tile of gathered rows and the int32 sums of a run
    /// of tiles, rounded to whole cache lines so threads do not share one.
    var threadScratchBytes: Int {
        let bytes = Int8QuadGEMM.tileRows * rowStride + tilesPerRun * Int8QuadGEMM.tileRows * 64 * Int8QuadGEMM.tileBlocks
        return (bytes + 63) / 64 * 64
    }

    /// Packs a filter of symmetric weights for a convolution that is not grouped.
    init(geometry: ConvGeometry, filter: UnsafePointer<Int8>, filterShape: NHWC) {
        let depth = filterShape.height * filterShape.width * filterShape.channels
        self.geometry = geometry
        self.filterShape = filterShape
        weights = Int8QuadPackedWeights(rows: filter, channels: filterShape.batch, depth: depth)
        weightSums = int8RowSums(filter, count: filterShape.batch, length: depth)
        readsInputInPlace = depth % 4 == 0 && Conv2D.isPointwise(geometry: geometry, filterShape: filterShape)
    }

    static var tileRows: Int { Int8QuadGEMM.tileRows }
    static var tileBlocks: Int { Int8QuadGEMM.tileBlocks }
    var blockCount: Int { weights.blockCount }

    /// A thread's tiles: each tile's input rows are gathered (im2col) unless they are the input
    /// pixels themselves, then multiplied with every block of packed weights, and `store`
    /// converts the sums a vector at a time.
    func convolveTiles<Store: Int8SumsStore>(_ tiles: Range<Int>, blocks: Range<Int>, input: UnsafePointer<Int8>, inputShape: NHWC,
                                             zeroPoint: Int8, store: Store, output: UnsafeMutablePointer<Store.Element>, outputShape: NHWC,
                                             scratch: UnsafeMutableRawPointer) {
        let stride = rowStride, tileRows = Int8QuadGEMM.tileRows
        let depth = weights.depth, quads = weights.quadCount
        let outputDepth = outputShape.channels
        let pixels = outputShape.batch * outputShape.height * outputShape.width
        let window = Int8WindowGather(geometry: geometry, filterShape: filterShape, inputShape: inputShape)
        let rows = scratch.bindMemory(to: Int8.self, capacity: tileRows * stride)
        let sums = scratch + tileRows * stride
        // The bytes that round the depth up to a quad meet zero weights; they are zeroed once so
        // that no uninitialised byte is read.
        if stride > depth {
            for r in 0..<tileRows { (rows + r * stride + depth).update(repeating: 0, count: stride - depth) }
        }

        weights.values.withUnsafeBufferPointer { packed in
            var tile = tiles.lowerBound
            while tile < tiles.upperBound {
                let tileCount = min(tilesPerRun, tiles.upperBound - tile)
                let first = tile * tileRows
                let valid = min(tileCount * tileRows, pixels - first)
                let a: UnsafePointer<Int8>, lda: Int
                if readsInputInPlace {
                    (a, lda) = (input + first * depth, depth)
                } else {
                    var at = OutputPixelWalk(first: first, shape: outputShape)
                    for r in 0..<valid {
                        // Padding taps hold the zero point, which contributes nothing once the
                        // store's correction is applied.
                        window.gather(input, pixel: first + r, at.b, at.oy, at.ox, into: rows + r * stride, pad: zeroPoint) {
                            $2.update(from: $0, count: $1)
                        }
                        at.advance()
                    }
                    (a, lda) = (UnsafePointer(rows), stride)
                }
                let panelStride = quads * 64
                Int8TileDriver.storeBlocks(store, blocks: blocks, tileBlocks: Int8QuadGEMM.tileBlocks,
                                           tileRows: tileRows, tileCount: tileCount, rowCount: valid, sums: sums,
                                           to: output + first * outputDepth, outputDepth: outputDepth) { block, blocks, t, tileSums, blockStride in
                    Int8QuadGEMM.tileSums(a: a + t * tileRows * lda, lda: lda, rowCount: min(tileRows, valid - t * tileRows),
                                          quads: quads, panel: packed.baseAddress! + block * panelStride, panelStride: panelStride,
                                          blocks: blocks, channels: outputDepth - block * 16, sums: tileSums,
                                          sumsBlockStride: blockStride)
                }
                tile += tileCount
            }
        }
    }
}
#endif
