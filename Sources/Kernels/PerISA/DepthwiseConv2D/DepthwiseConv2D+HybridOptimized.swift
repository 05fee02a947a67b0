#if TFLITE_ISA_MODULE
import Kernels
#endif
/// A hybrid DEPTHWISE_CONV_2D (float activations, int8 weights, depth multiplier 1) prepared
/// for the int8 tap-row kernel: each invocation quantises its input as the reference does,
/// runs the int8 depthwise convolution and scales the int32 sums to float in the reference's
/// order, so results equal `DepthwiseConv2D.Hybrid.reference` exactly.
struct PreparedHybridDepthwiseConv2D: Sendable {
    let layout: Int8DepthwiseLayout
    /// Weight scales, weight sums and clamp.
    let output: HybridOutputConstants
    /// Quantise the input asymmetrically (see ``HybridConvParams/asymmetricInputs``).
    let asymmetricInputs: Bool
    /// The input shape the layer was prepared for.
    let inputShape: NHWC

    /// Packs a filter of symmetric weights.
    init(_ params: HybridConvParams, filter: UnsafePointer<Int8>, filterShape: NHWC, inputShape: NHWC) {
        layout = Int8DepthwiseLayout(geometry: params.geometry, filter: filter, filterShape: filterShape)
        output = HybridOutputConstants(filterScales: params.filterScales, weightSums: layout.weightSums,
                                       activation: params.activation, order: .combinedScale)
        asymmetricInputs = params.asymmetricInputs
        self.inputShape = inputShape
    }

    /// Bytes of scratch space
    /// ``DepthwiseConv2D/Hybrid/optimized(_:input:bias:output:outputShape:scratch:pool:)`` needs
    /// for an output `outputWidth` pixels wide on `threadCount` threads: one quantised batch,
    /// then the convolution's.
    func scratchCount(outputWidth: Int, threadCount: Int) -> Int {
        Int8DepthwiseLayout.hybridScratchBytes(inputShape: inputShape,
                                               convolutionScratch: layout.scratchCount(outputWidth: outputWidth, threadCount: threadCount))
    }
}

extension DepthwiseConv2D.Hybrid {
    /// Optimised hybrid DEPTHWISE_CONV_2D, bit-exact with `DepthwiseConv2D.Hybrid.reference`:
    /// per batch, the input quantised a vector at a time, then the int8 tap-row kernel with a
    /// float store.
    ///
    /// - Parameters:
    ///   - bias: one float per channel, or nil.
    ///   - scratch: `prepared.scratchCount(outputWidth:threadCount:)` bytes.
    static func optimized(_ prepared: PreparedHybridDepthwiseConv2D, input: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
                          output: UnsafeMutablePointer<Float>, outputShape: NHWC,
                          scratch: UnsafeMutablePointer<Int8>, pool: ThreadPool?) {
        prepared.layout.runHybrid(prepared.output, asymmetricInputs: prepared.asymmetricInputs, inputBias: depthwiseInputBias,
                                  input: input, inputShape: prepared.inputShape, bias: bias, output: output, outputShape: outputShape,
                                  scratch: scratch, pool: pool)
    }
}
