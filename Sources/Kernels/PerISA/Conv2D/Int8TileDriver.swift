#if TFLITE_ISA_MODULE
import Kernels
#endif
/// A gathered int8 convolution (pair and quad kernels): output pixels in tiles of `tileRows`,
/// split across threads, each thread with its own working space. A layout supplies one
/// thread's loop over its tiles; `run` and `scratchBytes` are shared.
protocol Int8TiledConvolutionLayout: Int8ConvolutionLayout {
    /// Output pixels per tile.
    static var tileRows: Int { get }
    /// Blocks of ``int8LaneCount`` output channels a tile's kernel computes at once.
    static var tileBlocks: Int { get }
    /// Blocks of ``int8LaneCount`` output channels.
    var blockCount: Int { get }
    /// Bytes of one thread's working space, a whole number of cache lines.
    var threadScratchBytes: Int { get }
    /// One thread's share of `run`: the given tiles of output pixels and blocks of output
    /// channels, with `scratch` its own `threadScratchBytes`, 64-byte aligned.
    func convolveTiles<Store: Int8SumsStore>(_ tiles: Range<Int>, blocks: Range<Int>, input: UnsafePointer<Int8>, inputShape: NHWC,
                                             zeroPoint: Int8,
                                             store: Store, output: UnsafeMutablePointer<Store.Element>, outputShape: NHWC,
                                             scratch: UnsafeMutableRawPointer)
}

extension Int8TiledConvolutionLayout {
    func scratchBytes(outputShape: NHWC, threadCount: Int) -> Int { max(1, threadCount) * threadScratchBytes + 64 }

    /// Splits the tiles of output pixels across `pool`'s threads, or its blocks of output
    /// channels when there are few tiles and enough blocks (nil or one thread: the calling
    /// thread). A 7x7 layer's 49 pixels make 7 tiles, split 4 and 3 with the last tile's single
    /// pixel, where its 1,280 channels split evenly; each thread then gathers every tile's rows
    /// itself, which for so few pixels costs less than the idle time it saves.
    ///
    /// - Parameter scratch: ``scratchBytes(outputShape:threadCount:)`` bytes of working space.
    func run<Store: Int8SumsStore>(input: UnsafePointer<Int8>, inputShape: NHWC, zeroPoint: Int8, store: Store,
                                   output: UnsafeMutablePointer<Store.Element>, outputShape: NHWC,
                                   scratch: UnsafeMutablePointer<Int8>?, pool: ThreadPool?) {
        let pixels = outputShape.batch * outputShape.height * outputShape.width
        let tileCount = (pixels + Self.tileRows - 1) / Self.tileRows
        let blocks = blockCount, blockRuns = (blocks + Self.tileBlocks - 1) / Self.tileBlocks
        let base = Int8TileDriver.aligned(scratch), threadScratchBytes = threadScratchBytes
        guard let pool, pool.threadCount > 1 else {
            convolveTiles(0..<tileCount, blocks: 0..<blocks, input: input, inputShape: inputShape, zeroPoint: zeroPoint, store: store,
                          output: output, outputShape: outputShape, scratch: base)
            return
        }
        let threads = pool.threadCount
        if tileCount >= 4 * threads || blockRuns < 2 * threads {
            pool.parallelFor(count: tileCount, chunks: threads) { thread, tiles in
                convolveTiles(tiles, blocks: 0..<blocks, input: input, inputShape: inputShape, zeroPoint: zeroPoint, store: store,
                              output: output, outputShape: outputShape, scratch: base + thread * threadScratchBytes)
            }
        } else {
            pool.parallelFor(count: blockRuns, chunks: threads) { thread, runs in
                let range = (runs.lowerBound * Self.tileBlocks)..<Swift.min(blocks, runs.upperBound * Self.tileBlocks)
                convolveTiles(0..<tileCount, blocks: range, input: input, inputShape: inputShape, zeroPoint: zeroPoint, store: store,
                              output: output, outputShape: outputShape, scratch: base + thread * threadScratchBytes)
            }
        }
    }
}

/// What the tiled int8 convolutions share inside their tiles: aligned working space, and
/// storing a tile's sums (requantised or scaled, see ``Int8SumsStore``) block of channels by
/// block of channels.
enum Int8TileDriver {
    /// `scratch` from its first 64-byte boundary: rows are read as 32-bit groups, sums as
    /// vectors.
    static func aligned(_ scratch: UnsafeMutablePointer<Int8>?) -> UnsafeMutableRawPointer {
        let raw = UnsafeMutableRawPointer(scratch!)
        return raw + (64 - Int(bitPattern: raw) & 63) & 63
    }

    /// For each run of at most `tileBlocks` of the blocks `blocks` of ``int8LaneCount`` output
    /// channels, has
    /// `sumsOf(firstBlock, blocks, tile, tileSums, blockStride)` leave tile `tile`'s int32
    /// sums (of `tileCount` consecutive tiles) at `tileSums`, one block's `[tileRows][lanes]`
    /// every `blockStride` bytes; then has `store` convert the first `rowCount` rows of the
    /// tiles to `out` (rows `outputDepth` apart), one call per block for all the tiles.
    /// `sums` holds `tileBlocks * tileCount * tileRows` vectors.
    @inline(__always)
    static func storeBlocks<Store: Int8SumsStore>(_ store: Store, blocks range: Range<Int>, tileBlocks: Int, tileRows: Int, tileCount: Int = 1,
                                                  rowCount: Int, sums: UnsafeMutableRawPointer,
                                                  to out: UnsafeMutablePointer<Store.Element>, outputDepth: Int,
                                                  _ sumsOf: (_ firstBlock: Int, _ blocks: Int, _ tile: Int,
                                                             _ tileSums: UnsafeMutableRawPointer, _ blockStride: Int) -> Void) {
        let lanes = int8LaneCount, tileBytes = tileRows * lanes * 4, blockStride = tileCount * tileBytes
        var block = range.lowerBound
        while block < range.upperBound {
            let blocks = min(tileBlocks, range.upperBound - block)
            for tile in 0..<tileCount where tile * tileRows < rowCount {
                sumsOf(block, blocks, tile, sums + tile * tileBytes, blockStride)
            }
            for j in 0..<blocks {
                let group = block + j
                store.store(rows: sums + j * blockStride, sumStride: lanes * 4, rowCount: rowCount, group: group,
                            to: out + group * lanes, outStride: outputDepth, count: min(lanes, outputDepth - group * lanes))
            }
            block += blocks
        }
    }
}
