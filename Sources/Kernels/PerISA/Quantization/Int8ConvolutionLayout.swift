#if TFLITE_ISA_MODULE
import Kernels
#endif
/// The packed filter and window of an optimised int8 convolution (``Int8QuadConvLayout``,
/// ``Int8PairConvLayout``, ``Int8DepthwiseLayout``), whatever becomes of its sums: int8 layers
/// requantise them, hybrid layers (float activations) quantise their input first and scale the
/// sums to float. The two ways of running one are written once, here.
protocol Int8ConvolutionLayout: Sendable {
    /// The convolution of an int8 input whose zero point is `zeroPoint` (what padding taps
    /// hold), its int32 sums converted by `store`, on `pool`'s threads (nil: the calling one).
    func run<Store: Int8SumsStore>(input: UnsafePointer<Int8>, inputShape: NHWC, zeroPoint: Int8, store: Store,
                                   output: UnsafeMutablePointer<Store.Element>, outputShape: NHWC,
                                   scratch: UnsafeMutablePointer<Int8>?, pool: ThreadPool?)
}

extension Int8ConvolutionLayout {
    /// An int8 layer: the sums requantised by `requantization`, whose bias has the input zero
    /// point of `params` folded in.
    func runRequantized(_ requantization: Int8Requantization, params: QuantizedConvParams,
                        input: UnsafePointer<Int8>, inputShape: NHWC, output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
                        scratch: UnsafeMutablePointer<Int8>?, pool: ThreadPool?) {
        requantization.withRequantizer { q in
            run(input: input, inputShape: inputShape, zeroPoint: Int8(truncatingIfNeeded: -params.inputOffset), store: q,
                output: output, outputShape: outputShape, scratch: scratch, pool: pool)
        }
    }

    /// A hybrid layer on a float input: per batch, the input quantised as the reference does
    /// (each batch on its own scale) into the start of `scratch`, then the convolution with a
    /// float store, its `inputBias` being what the kernel adds to every input value.
    ///
    /// - Parameter scratch: ``hybridScratchBytes(inputShape:convolutionScratch:)`` bytes.
    func runHybrid(_ constants: HybridOutputConstants, asymmetricInputs: Bool, inputBias: Int32,
                   input: UnsafePointer<Float>, inputShape: NHWC, bias: UnsafePointer<Float>?,
                   output: UnsafeMutablePointer<Float>, outputShape: NHWC, scratch: UnsafeMutablePointer<Int8>, pool: ThreadPool?) {
        let oneInput = NHWC(batch: 1, height: inputShape.height, width: inputShape.width, channels: inputShape.channels)
        let oneOutput = NHWC(batch: 1, height: outputShape.height, width: outputShape.width, channels: outputShape.channels)
        let convolutionScratch = scratch + Self.quantizedBatchBytes(inputShape)
        for b in 0..<inputShape.batch {
            let scale = HybridInputQuantizer.quantize(input + b * oneInput.elementCount, count: oneInput.elementCount,
                                                      asymmetric: asymmetricInputs, into: scratch)
            constants.withStore(input: scale, inputBias: inputBias, bias: bias) { store in
                run(input: scratch, inputShape: oneInput, zeroPoint: Int8(truncatingIfNeeded: scale.offset), store: store,
                    output: output + b * oneOutput.elementCount, outputShape: oneOutput, scratch: convolutionScratch, pool: pool)
            }
        }
    }

    /// Bytes of scratch space ``runHybrid(_:asymmetricInputs:inputBias:input:inputShape:bias:output:outputShape:scratch:pool:)``
    /// needs: one quantised batch, then the convolution's own.
    static func hybridScratchBytes(inputShape: NHWC, convolutionScratch: Int) -> Int {
        quantizedBatchBytes(inputShape) + convolutionScratch
    }

    /// Bytes of one quantised batch of `shape`, in whole cache lines.
    private static func quantizedBatchBytes(_ shape: NHWC) -> Int { (shape.height * shape.width * shape.channels + 63) / 64 * 64 }
}
