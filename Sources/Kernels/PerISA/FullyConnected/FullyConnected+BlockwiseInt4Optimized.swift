#if TFLITE_ISA_MODULE
import Kernels
#endif
/// Optimised blockwise int4 FULLY_CONNECTED (float activations): each weight row is widened
/// into a small per-thread int8 buffer (one row, in cache, never the whole matrix), each
/// block's dot product is the variant's int8 SIMD dot product, and the float steps are the
/// reference's (``FullyConnected/blockwiseOutput``), in the same order: the results equal
/// ``FullyConnected/blockwiseInt4Reference`` exactly. Rows are split across `pool`'s threads
/// when the work pays for it.
func fullyConnectedBlockwiseInt4Optimized(_ w: BlockwiseInt4Weights, input: UnsafePointer<Float>, batches: Int,
                                          bias: UnsafePointer<Float>?, activation: ActivationRange<Float>,
                                          output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Int8>,
                                          pool: ThreadPool) {
    let depth = w.columns
    // Quantising the input rows is cheap beside the products; it happens once, before the split.
    withUnsafeTemporaryAllocation(of: HybridInputScale.self, capacity: batches) { inputScales in
        for b in 0..<batches {
            inputScales.initializeElement(at: b, to: asymmetricQuantizeFloats(input + b * depth, count: depth, into: scratch + b * depth))
        }
        let scales = UnsafeBufferPointer(inputScales)
        ThreadPool.split(pool, count: w.rows, work: w.rows * depth * batches) { rows in
            blockwiseInt4Rows(w, rows: rows, quantized: scratch, inputScales: scales, batches: batches, bias: bias,
                              activation: activation, output: output)
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
                    var sum: Float = 0
                    for k in 0..<blocks {
                        let dot = int8DotProduct(widened + k * size, x + k * size, count: size)
                        sum += Float(dot) * rowScales[k]
                    }
                    output[b * w.rows + r] = FullyConnected.blockwiseOutput(sum, row: r, weights: w, inputScale: inputScales[b],
                                                                            bias: bias, activation: activation)
                }
            }
        }
    }
}
