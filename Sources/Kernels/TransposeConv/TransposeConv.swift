/// What prepare computes once for a float TRANSPOSE_CONV node (also MediaPipe's
/// `Convolution2DTransposeBias`, which is the same computation with a bias).
public struct TransposeConvParams: Sendable {
    /// Vertical stride of the scatter.
    public var strideHeight: Int
    /// Horizontal stride of the scatter.
    public var strideWidth: Int
    /// Output rows cut from the top (the `before` padding TFLite computes from the output size).
    public var paddingTop: Int
    /// Output columns cut from the left.
    public var paddingLeft: Int
    /// The fused activation as a clamp (TFLite's TRANSPOSE_CONV options carry one from version 4).
    public var activation: ActivationRange<Float>

    /// Creates the parameters of one transposed convolution.
    public init(strideHeight: Int, strideWidth: Int, paddingTop: Int, paddingLeft: Int,
                activation: ActivationRange<Float> = ActivationRange(min: -.infinity, max: .infinity)) {
        self.strideHeight = strideHeight
        self.strideWidth = strideWidth
        self.paddingTop = paddingTop
        self.paddingLeft = paddingLeft
        self.activation = activation
    }
}

/// Float TRANSPOSE_CONV: every input pixel scatters `input * filter` into a stride-spaced window
/// of the output. Tensors are NHWC; the filter is `[outputChannels, filterHeight, filterWidth,
/// inputChannels]`.
public enum TransposeConv {
    /// The reference scatter, mirroring TFLite's `reference_ops::TransposeConv`: contributions
    /// falling outside the output are dropped, then bias and clamp are applied.
    public static func reference(params: TransposeConvParams, _ operands: ConvOperands<Float, Float, Float, Float>) {
        transposeConvScatter(strideHeight: params.strideHeight, strideWidth: params.strideWidth,
                             paddingTop: params.paddingTop, paddingLeft: params.paddingLeft,
                             operands, accumulators: operands.output, product: *, add: +)
        let output = operands.output, bias = operands.bias
        let oc = operands.outputShape.channels
        let pixels = operands.outputShape.batch * operands.outputShape.height * operands.outputShape.width
        for p in 0..<pixels {
            for o in 0..<oc {
                output[p * oc + o] = params.activation.clamp(output[p * oc + o] + (bias?[o] ?? 0))
            }
        }
    }
}

/// The scatter every TRANSPOSE_CONV kernel shares, in the order of TFLite's reference kernels:
/// each input pixel, for each filter tap landing inside the output (taps falling outside are
/// dropped), adds to every output channel the sum over the input channels of
/// `product(input, filter)`. `accumulators`, one per output element, is zeroed first. The float
/// kernel accumulates into its output with IEEE arithmetic, the quantised ones into an integer
/// scratch with wrapping arithmetic (whose sums do not depend on their order).
@inline(__always)
func transposeConvScatter<In, Weight, Bias, Out, Accumulator: AdditiveArithmetic>(
    strideHeight: Int, strideWidth: Int, paddingTop: Int, paddingLeft: Int,
    _ operands: ConvOperands<In, Weight, Bias, Out>, accumulators: UnsafeMutablePointer<Accumulator>,
    product: (In, Weight) -> Accumulator, add: (Accumulator, Accumulator) -> Accumulator
) {
    let input = operands.input, filter = operands.filter
    let inputShape = operands.inputShape, filterShape = operands.filterShape, outputShape = operands.outputShape
    let oc = outputShape.channels, ic = inputShape.channels
    accumulators.update(repeating: .zero, count: outputShape.elementCount)
    for b in 0..<inputShape.batch {
        for iy in 0..<inputShape.height {
            for ix in 0..<inputShape.width {
                let x = input + ((b * inputShape.height + iy) * inputShape.width + ix) * ic
                let oy0 = iy * strideHeight - paddingTop
                let ox0 = ix * strideWidth - paddingLeft
                for fy in 0..<filterShape.height {
                    let oy = oy0 + fy
                    if oy < 0 || oy >= outputShape.height { continue }
                    for fx in 0..<filterShape.width {
                        let ox = ox0 + fx
                        if ox < 0 || ox >= outputShape.width { continue }
                        let out = accumulators + ((b * outputShape.height + oy) * outputShape.width + ox) * oc
                        for o in 0..<oc {
                            let w = filter + ((o * filterShape.height + fy) * filterShape.width + fx) * ic
                            var sum = Accumulator.zero
                            for c in 0..<ic { sum = add(sum, product(x[c], w[c])) }
                            out[o] = add(out[o], sum)
                        }
                    }
                }
            }
        }
    }
}
