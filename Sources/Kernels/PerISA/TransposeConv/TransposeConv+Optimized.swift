#if TFLITE_ISA_MODULE
import Kernels
#endif
/// The filter of one TRANSPOSE_CONV node regrouped for the GEMM path, built once at prepare.
struct PackedTransposeConvWeights: Sendable {
    /// The original filter shape, `[outputChannels, filterHeight, filterWidth, inputChannels]`.
    let filterShape: NHWC
    /// The filter as a `[filterHeight * filterWidth * outputChannels, inputChannels]` operand:
    /// one GEMM row per (tap, output channel).
    let gemm: PackedGEMMWeights

    /// Regroups and packs a filter laid out `[outputChannels, filterHeight, filterWidth, inputChannels]`.
    init(filter: UnsafePointer<Float>, filterShape: NHWC) {
        self.filterShape = filterShape
        let oc = filterShape.batch, taps = filterShape.height * filterShape.width, ic = filterShape.channels
        var regrouped = [Float](repeating: 0, count: taps * oc * ic)
        for o in 0..<oc {
            for t in 0..<taps {
                for c in 0..<ic { regrouped[(t * oc + o) * ic + c] = filter[(o * taps + t) * ic + c] }
            }
        }
        gemm = regrouped.withUnsafeBufferPointer {
            PackedGEMMWeights(weights: $0.baseAddress!, outputCount: taps * oc, depth: ic)
        }
    }
}

extension TransposeConv {
    /// Input pixels multiplied per GEMM block.
    static let blockRows = 16 * GEMM.rowTile

    /// Floats of scratch ``optimized(params:input:inputShape:weights:bias:output:outputShape:scratch:pool:)``
    /// needs on `threadCount` threads.
    static func scratchFloatCount(filterShape: NHWC, threadCount: Int = 1) -> Int {
        Swift.max(1, threadCount) * blockRows * filterShape.height * filterShape.width * filterShape.batch
    }

    /// The GEMM path: the output starts as the bias; the pixels of each input row are
    /// multiplied, in blocks, by the regrouped filter, giving every (tap, output channel)
    /// contribution of each pixel, which is added into its output window; the clamp follows.
    /// Same result as ``reference(params:_:)``
    /// up to summation order.
    ///
    /// Input rows are split across `pool` when their output windows cannot overlap (a stride at
    /// least the filter height, as in the usual 2x2 stride-2 upsampling): input row `iy` then
    /// writes output rows no other input row writes.
    static func optimized(params: TransposeConvParams,
                          input: UnsafePointer<Float>, inputShape: NHWC,
                          weights: PackedTransposeConvWeights, bias: UnsafePointer<Float>?,
                          output: UnsafeMutablePointer<Float>, outputShape: NHWC,
                          scratch: UnsafeMutablePointer<Float>, pool: ThreadPool? = nil) {
        let f = weights.filterShape
        let oc = outputShape.channels, ic = inputShape.channels
        let n = weights.gemm.outputCount
        let outPixels = outputShape.batch * outputShape.height * outputShape.width
        if let bias, oc > 1 {
            for p in 0..<outPixels { (output + p * oc).update(from: bias, count: oc) }
        } else {
            output.update(repeating: bias?[0] ?? 0, count: outPixels * oc)
        }
        let rows = inputShape.batch * inputShape.height, width = inputShape.width
        if ic > 0 && n > 0 && rows > 0 && width > 0 {
            let none = ActivationRange<Float>(min: -.infinity, max: .infinity)
            let disjointRows = params.strideHeight >= f.height
            let work = rows * width * n * ic
            /// Input rows `range`, with scratch block `thread`.
            func inputRows(_ range: Range<Int>, thread: Int) {
                let buffer = scratch + thread * blockRows * n
                for row in range {
                    let b = row / inputShape.height, iy = row % inputShape.height
                    let oy0 = iy * params.strideHeight - params.paddingTop
                    var x0 = 0
                    while x0 < width {
                        let count = Swift.min(blockRows, width - x0)
                        GEMM.multiply(a: input + (row * width + x0) * ic, lda: ic, rows: 0..<count, weights: weights.gemm,
                                      panels: 0..<weights.gemm.panelCount, bias: nil, activation: none, c: buffer, ldc: n)
                        for r in 0..<count {
                            let ox0 = (x0 + r) * params.strideWidth - params.paddingLeft
                            for fy in 0..<f.height {
                                let oy = oy0 + fy
                                if oy < 0 || oy >= outputShape.height { continue }
                                let outRow = output + (b * outputShape.height + oy) * outputShape.width * oc
                                for fx in 0..<f.width {
                                    let ox = ox0 + fx
                                    if ox < 0 || ox >= outputShape.width { continue }
                                    let src = buffer + r * n + (fy * f.width + fx) * oc
                                    let dst = outRow + ox * oc
                                    for o in 0..<oc { dst[o] += src[o] }
                                }
                            }
                        }
                        x0 += count
                    }
                }
            }
            if disjointRows, let pool, pool.threadCount > 1, work >= ThreadPool.minimumParallelWork {
                pool.parallelFor(count: rows, chunks: pool.threadCount) { thread, range in inputRows(range, thread: thread) }
            } else {
                inputRows(0..<rows, thread: 0)
            }
        }
        let lo = params.activation.min, hi = params.activation.max
        if lo > -.infinity || hi < .infinity {
            for i in 0..<(outPixels * oc) { output[i] = Swift.min(Swift.max(output[i], lo), hi) }
        }
    }
}
