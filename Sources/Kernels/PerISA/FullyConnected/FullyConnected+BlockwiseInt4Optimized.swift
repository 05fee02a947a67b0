#if TFLITE_ISA_MODULE
import Kernels
#endif
extension FullyConnected.BlockwiseInt4 {
    /// Optimised blockwise int4 FULLY_CONNECTED (float activations): each weight row is widened
    /// into a small per-thread int8 buffer (one row, in cache, never the whole matrix); each
    /// block's products stay in the variant's int32 lanes, which are converted to float, scaled by
    /// the block's scale and accumulated lane by lane, so a row needs one horizontal sum rather
    /// than one per block (block sums of 32 values made the reductions most of the work). The
    /// float sum therefore runs in another order than the reference's, which sums each block's
    /// integer dot product first: results agree to float rounding. The steps after the block sums
    /// are the reference's (``FullyConnected/blockwiseOutput``). Rows are split across `pool`'s
    /// threads when the work pays for it.
    static func optimized(_ w: BlockwiseInt4Weights, input: UnsafePointer<Float>, batches: Int,
                          bias: UnsafePointer<Float>?, activation: ActivationRange<Float>,
                          output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Int8>,
                          pool: ThreadPool) {
        let depth = w.columns
        // Quantising the input rows is cheap beside the products; it happens once, before the split.
        withUnsafeTemporaryAllocation(of: HybridInputScale.self, capacity: batches) { inputScales in
            for b in 0..<batches {
                inputScales.initializeElement(at: b, to: HybridInputQuantizer.quantize(input + b * depth, count: depth, asymmetric: true,
                                                                                      into: scratch + b * depth))
            }
            let scales = UnsafeBufferPointer(inputScales)
            ThreadPool.split(pool, count: w.rows, work: w.rows * depth * batches) { rows in
                blockwiseInt4Rows(w, rows: rows, quantized: scratch, inputScales: scales, batches: batches, bias: bias,
                                  activation: activation, output: output)
            }
        }
    }
}

/// One thread's share: output rows `rows` of every batch.
private func blockwiseInt4Rows(_ w: BlockwiseInt4Weights, rows: Range<Int>, quantized: UnsafePointer<Int8>,
                               inputScales: UnsafeBufferPointer<HybridInputScale>, batches: Int, bias: UnsafePointer<Float>?,
                               activation: ActivationRange<Float>, output: UnsafeMutablePointer<Float>) {
    let depth = w.columns, blocks = w.blocksPerRow, size = w.blockSize
    w.scales.withUnsafeBufferPointer { scales in
        withUnsafeTemporaryAllocation(of: Int8.self, capacity: depth) { row in
            let widened = row.baseAddress!
            for r in rows {
                PackedInt4.unpack(w.packed, from: r * depth, count: depth, into: widened)
                let rowScales = scales.baseAddress! + r * blocks
                for b in 0..<batches {
                    let x = quantized + b * depth
                    let sum = size % int8PairLaneCount == 0
                        ? blockSumsInLanes(widened, x, blocks: blocks, size: size, scales: rowScales)
                        : blockSumsScalar(widened, x, blocks: blocks, size: size, scales: rowScales)
                    output[b * w.rows + r] = FullyConnected.blockwiseOutput(sum, row: r, weights: w, inputScale: inputScales[b],
                                                                            bias: bias, activation: activation)
                }
            }
        }
    }
}

/// `sum over blocks k of dot(block k) * scales[k]`, the products of each block accumulated in
/// int32 lanes and the scaled blocks in float lanes (`size` a multiple of the pair-lane count).
@inline(__always)
private func blockSumsInLanes(_ w: UnsafePointer<Int8>, _ x: UnsafePointer<Int8>, blocks: Int, size: Int,
                              scales: UnsafePointer<Float>) -> Float {
    var total = FloatLanes()
    let rw = UnsafeRawPointer(w), rx = UnsafeRawPointer(x)
    for k in 0..<blocks {
        var lanes = Int32Lanes()
        var i = k &* size
        let end = i &+ size
        while i < end {
            lanes &+= vectorPairProducts(loadInt8AsInt16Pairs(rw + i), loadInt8AsInt16Pairs(rx + i))
            i &+= int8PairLaneCount
        }
        total += FloatLanes(lanes) * scales[k]
    }
    return total.sum()
}

/// The same sum block by block, for block sizes the lanes do not divide.
private func blockSumsScalar(_ w: UnsafePointer<Int8>, _ x: UnsafePointer<Int8>, blocks: Int, size: Int,
                             scales: UnsafePointer<Float>) -> Float {
    var sum: Float = 0
    for k in 0..<blocks { sum += Float(int8DotProduct(w + k * size, x + k * size, count: size)) * scales[k] }
    return sum
}
