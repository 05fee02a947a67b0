#if TFLITE_ISA_MODULE
import Kernels
#endif
extension FullyConnected {
    /// Packs constant weights (`[outputDepth, inputDepth]`) once for ``optimized(params:input:batch:weights:bias:output:pool:)``.
    static func packWeights(_ weights: UnsafePointer<Float>, outputDepth: Int, inputDepth: Int) -> PackedGEMMWeights {
        PackedGEMMWeights(weights: weights, outputCount: outputDepth, depth: inputDepth)
    }

    /// The optimised FULLY_CONNECTED: the packed GEMM, split across `pool` by rows or, for small
    /// batches, by output columns.
    static func optimized(params: FullyConnectedParams,
                          input: UnsafePointer<Float>, batch: Int,
                          weights: PackedGEMMWeights, bias: UnsafePointer<Float>?,
                          output: UnsafeMutablePointer<Float>, pool: ThreadPool) {
        let n = weights.outputCount, k = weights.depth
        guard batch > 0, n > 0 else { return }
        if k == 0 {
            for b in 0..<batch { for o in 0..<n { output[b * n + o] = params.activation.clamp(bias?[o] ?? 0) } }
            return
        }
        Conv2D.multiplySplit(a: input, lda: k, m: batch, weights: weights, bias: bias,
                             activation: params.activation, c: output, ldc: n, pool: pool)
    }
}
