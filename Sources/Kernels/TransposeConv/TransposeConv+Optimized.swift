/// The filter of one TRANSPOSE_CONV node regrouped for the GEMM path, built once at prepare.
public struct PackedTransposeConvWeights: Sendable {
    /// The original filter shape, `[outputChannels, filterHeight, filterWidth, inputChannels]`.
    public let filterShape: NHWC
    /// The filter as a `[filterHeight * filterWidth * outputChannels, inputChannels]` operand:
    /// one GEMM row per (tap, output channel).
    public let gemm: PackedGEMMWeights

    /// Regroups and packs a filter laid out `[outputChannels, filterHeight, filterWidth, inputChannels]`.
    public init(filter: UnsafePointer<Float>, filterShape: NHWC) {
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

    /// Floats of scratch ``optimized(params:input:inputShape:weights:bias:output:outputShape:scratch:)`` needs.
    public static func scratchFloatCount(filterShape: NHWC) -> Int {
        blockRows * filterShape.height * filterShape.width * filterShape.batch
    }

    /// The GEMM path: blocks of input pixels are multiplied by the regrouped filter, giving
    /// every (tap, output channel) contribution of each pixel, which is then added into the
    /// output window; bias and clamp follow. Same result as ``reference(params:input:inputShape:filter:filterShape:bias:output:outputShape:)``
    /// up to summation order.
    public static func optimized(params: TransposeConvParams,
                                 input: UnsafePointer<Float>, inputShape: NHWC,
                                 weights: PackedTransposeConvWeights, bias: UnsafePointer<Float>?,
                                 output: UnsafeMutablePointer<Float>, outputShape: NHWC,
                                 scratch: UnsafeMutablePointer<Float>) {
        let f = weights.filterShape
        let oc = outputShape.channels, ic = inputShape.channels
        let n = weights.gemm.outputCount
        output.update(repeating: 0, count: outputShape.elementCount)
        let pixels = inputShape.batch * inputShape.height * inputShape.width
        if ic > 0 && n > 0 {
            let none = ActivationRange<Float>(min: -.infinity, max: .infinity)
            var first = 0
            while first < pixels {
                let rows = Swift.min(blockRows, pixels - first)
                GEMM.multiply(a: input + first * ic, lda: ic, rows: 0..<rows, weights: weights.gemm,
                              panels: 0..<weights.gemm.panelCount, bias: nil, activation: none, c: scratch, ldc: n)
                for r in 0..<rows {
                    let pixel = first + r
                    let ix = pixel % inputShape.width
                    let iy = (pixel / inputShape.width) % inputShape.height
                    let b = pixel / (inputShape.width * inputShape.height)
                    let oy0 = iy * params.strideHeight - params.paddingTop
                    let ox0 = ix * params.strideWidth - params.paddingLeft
                    for fy in 0..<f.height {
                        let oy = oy0 + fy
                        if oy < 0 || oy >= outputShape.height { continue }
                        for fx in 0..<f.width {
                            let ox = ox0 + fx
                            if ox < 0 || ox >= outputShape.width { continue }
                            let src = scratch + r * n + (fy * f.width + fx) * oc
                            let dst = output + ((b * outputShape.height + oy) * outputShape.width + ox) * oc
                            for o in 0..<oc { dst[o] += src[o] }
                        }
                    }
                }
                first += rows
            }
        }
        let outPixels = outputShape.batch * outputShape.height * outputShape.width
        for p in 0..<outPixels {
            for o in 0..<oc {
                output[p * oc + o] = params.activation.clamp(output[p * oc + o] + (bias?[o] ?? 0))
            }
        }
    }
}
