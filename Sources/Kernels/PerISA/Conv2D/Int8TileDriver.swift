#if TFLITE_ISA_MODULE
import Kernels
#endif
/// What the gathered int8 convolutions (pair and quad kernels) share around their micro-kernel:
/// splitting tiles of output pixels across threads, and storing a tile's sums (requantised or
/// scaled, see ``Int8SumsStore``) block of channels by block of channels.
enum Int8TileDriver {
    /// `scratch` from its first 64-byte boundary: rows are read as 32-bit groups, sums as
    /// vectors.
    static func aligned(_ scratch: UnsafeMutablePointer<Int8>?) -> UnsafeMutableRawPointer {
        let raw = UnsafeMutableRawPointer(scratch!)
        return raw + (64 - Int(bitPattern: raw) & 63) & 63
    }

    /// Runs `body` over `tileCount` tiles, split across `pool`'s threads (nil or one thread: the
    /// calling thread), each thread with its own `threadScratchBytes` from `base`.
    @inline(__always)
    static func splitTiles(_ tileCount: Int, pool: ThreadPool?, base: UnsafeMutableRawPointer, threadScratchBytes: Int,
                           _ body: (_ tiles: Range<Int>, _ scratch: UnsafeMutableRawPointer) -> Void) {
        if let pool, pool.threadCount > 1 {
            pool.parallelFor(count: tileCount, chunks: pool.threadCount) { thread, tiles in
                body(tiles, base + thread * threadScratchBytes)
            }
        } else {
            body(0..<tileCount, base)
        }
    }

    /// For each run of at most `tileBlocks` blocks of ``int8LaneCount`` output channels, has
    /// `sumsOf(firstBlock, blocks)` leave the tile's int32 sums at `sums` (`[block][tileRows][lanes]`),
    /// then has `store` convert their first `rowCount` rows to `out` (rows `outputDepth` apart).
    @inline(__always)
    static func storeBlocks<Store: Int8SumsStore>(_ store: Store, blockCount: Int, tileBlocks: Int, tileRows: Int, rowCount: Int,
                                                  sums: UnsafeMutableRawPointer, to out: UnsafeMutablePointer<Store.Element>,
                                                  outputDepth: Int, _ sumsOf: (_ firstBlock: Int, _ blocks: Int) -> Void) {
        let lanes = int8LaneCount
        var block = 0
        while block < blockCount {
            let blocks = min(tileBlocks, blockCount - block)
            sumsOf(block, blocks)
            for j in 0..<blocks {
                let group = block + j
                store.store(rows: sums + j * tileRows * lanes * 4, sumStride: lanes * 4, rowCount: rowCount, group: group,
                        to: out + group * lanes, outStride: outputDepth, count: min(lanes, outputDepth - group * lanes))
            }
            block += blocks
        }
    }
}
