#if TFLITE_ISA_MODULE
import Kernels
#endif
/// A hybrid CONV_2D (float activations, int8 weights) prepared for the int8 kernels: each
/// invocation quantises its input as the reference does, runs the int8 convolution of this
/// variant (quads on `vpdpbusd` with AVX-512 VNNI, pairs elsewhere) and scales the int32 sums
/// to float in the reference's order, so results equal `Conv2D.Hybrid.reference` exactly.
struct PreparedHybridConv2D: Sendable {
    #if TFLITE_VNNI
    let layout: Int8QuadConvLayout
    /// The kernel's path, for its name.
    static let path = "conv2d.f32-i8.quads"
    /// What the kernel adds to every input value (sign bits flipped: `x + 128`).
    static let inputBias: Int32 = 128
    #else
    let layout: Int8PairConvLayout
    /// The kernel's path, for its name.
    static let path = "conv2d.f32-i8.gathered"
    /// What the kernel adds to every input value: nothing.
    static let inputBias: Int32 = 0
    #endif
    /// Weight scales, weight sums and clamp.
    let output: HybridOutputConstants
    /// Quantise the input asymmetrically (see ``HybridConvParams/asymmetricInputs``).
    let asymmetricInputs: Bool
    /// The input shape the layer was prepared for.
    let inputShape: NHWC

    /// Packs a filter of symmetric weights for a convolution that is not grouped.
    init(_ params: HybridConvParams, filter: UnsafePointer<Int8>, filterShape: NHWC, inputShape: NHWC) {
        #if TFLITE_VNNI
        layout = Int8QuadConvLayout(geometry: params.geometry, filter: filter, filterShape: filterShape)
        #else
        layout = Int8PairConvLayout(geometry: params.geometry, filter: filter, filterShape: filterShape)
        #endif
        output = HybridOutputConstants(filterScales: params.filterScales, weightSums: layout.weightSums,
                                       activation: params.activation, order: .filterThenInput)
        asymmetricInputs = params.asymmetricInputs
        self.inputShape = inputShape
    }

    /// Bytes of scratch space ``Conv2D/Hybrid/optimized(_:input:bias:output:outputShape:scratch:pool:)``
    /// needs on `threadCount` threads: one quantised batch, then the convolution's.
    func scratchCount(threadCount: Int) -> Int {
        type(of: layout).hybridScratchBytes(inputShape: inputShape, convolutionScratch: layout.scratchCount(threadCount: threadCount))
    }
}

extension Conv2D.Hybrid {
    /// Optimised hybrid CONV_2D, bit-exact with `Conv2D.Hybrid.reference`: per batch, the
    /// input quantised a vector at a time, then the int8 convolution with a float store.
    ///
    /// - Parameters:
    ///   - bias: one float per output channel, or nil.
    ///   - scratch: `prepared.scratchCount(threadCount: pool.threadCount)` bytes.
    static func optimized(_ prepared: PreparedHybridConv2D, input: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
                          output: UnsafeMutablePointer<Float>, outputShape: NHWC,
                          scratch: UnsafeMutablePointer<Int8>, pool: ThreadPool?) {
        prepared.layout.runHybrid(prepared.output, asymmetricInputs: prepared.asymmetricInputs, inputBias: PreparedHybridConv2D.inputBias,
                                  input: input, inputShape: prepared.inputShape, bias: bias, output: output, outputShape: outputShape,
                                  scratch: scratch, pool: pool)
    }
}
