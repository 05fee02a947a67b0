#if TFLITE_ISA_MODULE
import Kernels
#endif
/// The packed filter and window of an optimised int8 convolution (``Int8QuadConvLayout``,
/// ``Int8PairConvLayout``, ``Int8DepthwiseLayout``), whatever becomes of its sums: int8 layers
/// requantise them (``RequantizedConvolution``), hybrid layers (float activations) quantise
/// their input first and scale the sums to float (``HybridConvolution``).
protocol Int8ConvolutionLayout: Sendable {
    /// What the kernel adds to every input value it reads (128 for sign-flipped bytes, else 0).
    static var inputBias: Int32 { get }
    /// The sum of each output channel's weights: the sums carry `inputBias` times it, and the
    /// input's zero point takes off as much again.
    var weightSums: [Int32] { get }
    /// Bytes of scratch space `run` needs for `outputShape` on `threadCount` threads.
    func scratchBytes(outputShape: NHWC, threadCount: Int) -> Int
    /// The convolution of an int8 input whose zero point is `zeroPoint` (what padding taps
    /// hold), its int32 sums converted by `store`, on `pool`'s threads (nil: the calling one).
    func run<Store: Int8SumsStore>(input: UnsafePointer<Int8>, inputShape: NHWC, zeroPoint: Int8, store: Store,
                                   output: UnsafeMutablePointer<Store.Element>, outputShape: NHWC,
                                   scratch: UnsafeMutablePointer<Int8>?, pool: ThreadPool?)
}

/// An int8 convolution prepared on a layout, bit-exact with the reference kernel: the input
/// zero point and the layout's input bias folded into the bias
/// (`bias + (inputOffset - inputBias) * sum(weights)`), the requantisation laid out for vectors.
struct RequantizedConvolution<Layout: Int8ConvolutionLayout>: Sendable {
    let layout: Layout
    /// The reference parameters (geometry, rescale, clamp).
    let params: QuantizedConvParams
    /// Bias, multipliers and clamp per group of channels.
    let requantization: Int8Requantization

    /// Nil when a rescale has no vector form (see ``Int8Requantization``). Requires symmetric
    /// weights.
    init?(_ layout: Layout, params: QuantizedConvParams, bias: UnsafePointer<Int32>?) {
        precondition(params.filterOffset == 0, "the optimised int8 paths expect symmetric weights")
        guard let requantization = Int8Requantization(weightSums: layout.weightSums, bias: bias, convolution: params,
                                                      inputBias: Layout.inputBias)
        else { return nil }
        self.layout = layout
        self.params = params
        self.requantization = requantization
    }

    func scratchBytes(outputShape: NHWC, threadCount: Int) -> Int {
        layout.scratchBytes(outputShape: outputShape, threadCount: threadCount)
    }

    /// Runs the layer; `scratch` holds ``scratchBytes(outputShape:threadCount:)`` bytes.
    func run(input: UnsafePointer<Int8>, inputShape: NHWC, output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
             scratch: UnsafeMutablePointer<Int8>?, pool: ThreadPool?) {
        requantization.withRequantizer { q in
            layout.run(input: input, inputShape: inputShape, zeroPoint: Int8(truncatingIfNeeded: -params.inputOffset), store: q,
                       output: output, outputShape: outputShape, scratch: scratch, pool: pool)
        }
    }
}

/// A hybrid convolution (float activations, int8 weights) prepared on a layout, bit-exact with
/// the reference hybrid kernel: per batch, the input quantised as the reference does (each
/// batch on its own scale), then the int8 convolution with a float store (``HybridFloatStore``)
/// that does the reference's float arithmetic in its order.
struct HybridConvolution<Layout: Int8ConvolutionLayout>: Sendable {
    let layout: Layout
    /// Weight scales, weight sums and clamp.
    let output: HybridOutputConstants
    /// Quantise the input asymmetrically (see ``HybridConvParams/asymmetricInputs``).
    let asymmetricInputs: Bool
    /// The input shape the layer was prepared for.
    let inputShape: NHWC

    init(_ layout: Layout, params: HybridConvParams, order: HybridScaleOrder, inputShape: NHWC) {
        self.layout = layout
        output = HybridOutputConstants(filterScales: params.filterScales, weightSums: layout.weightSums,
                                       activation: params.activation, order: order)
        asymmetricInputs = params.asymmetricInputs
        self.inputShape = inputShape
    }

    /// Bytes of one quantised batch, in whole cache lines.
    private var quantizedBytes: Int { (inputShape.height * inputShape.width * inputShape.channels + 63) / 64 * 64 }

    /// One quantised batch, then the convolution's own scratch space.
    func scratchBytes(outputShape: NHWC, threadCount: Int) -> Int {
        quantizedBytes + layout.scratchBytes(outputShape: outputShape, threadCount: threadCount)
    }

    /// Runs the layer; `bias` is one float per output channel or nil, `scratch` holds
    /// ``scratchBytes(outputShape:threadCount:)`` bytes.
    func run(input: UnsafePointer<Float>, bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>, outputShape: NHWC,
             scratch: UnsafeMutablePointer<Int8>, pool: ThreadPool?) {
        let oneInput = NHWC(batch: 1, height: inputShape.height, width: inputShape.width, channels: inputShape.channels)
        let oneOutput = NHWC(batch: 1, height: outputShape.height, width: outputShape.width, channels: outputShape.channels)
        for b in 0..<inputShape.batch {
            let scale = HybridInputQuantizer.quantize(input + b * oneInput.elementCount, count: oneInput.elementCount,
                                                      asymmetric: asymmetricInputs, into: scratch)
            self.output.withStore(input: scale, inputBias: Layout.inputBias, bias: bias) { store in
                layout.run(input: scratch, inputShape: oneInput, zeroPoint: Int8(truncatingIfNeeded: scale.offset), store: store,
                           output: output + b * oneOutput.elementCount, outputShape: oneOutput, scratch: scratch + quantizedBytes,
                           pool: pool)
            }
        }
    }
}
