/// The optimised kernels of one instruction-set variant: the one place that says which
/// compiled copy of the convolution, fully-connected, pooling, resize and int8 ADD kernels a node runs.
///
/// Every variant fills the same slots from the same source (`Sources/Kernels/PerISA`), so they
/// differ only in the vector width, micro-kernel tile and instructions their `-target-cpu`
/// allows. The runtime takes one value per interpreter from `KernelSelection` and prepares each
/// node through it; a prepared kernel keeps its weights packed for that variant and must run
/// with nothing else. Slots return nil where the optimised path does not apply; the family's
/// planning function (`Conv2D.Quantized.plan`, ...) then picks the reference kernel.
public struct OptimizedKernels: Sendable {
    /// The instruction set this variant was compiled for.
    public let instructionSet: InstructionSet
    /// The float GEMM micro-kernel: rows x columns per tile.
    public let floatGEMMTile: (rows: Int, columns: Int)
    /// The int8 GEMM micro-kernel: rows x channels per tile.
    public let int8GEMMTile: (rows: Int, columns: Int)

    /// Float CONV_2D (not grouped) with constant weights: packs them.
    public let floatConv2D: @Sendable (_ params: Conv2DParams, _ inputShape: NHWC, _ filter: UnsafePointer<Float>,
                                       _ filterShape: NHWC, _ outputShape: NHWC, _ threadCount: Int) -> FloatConv2DKernel?
    /// Float DEPTHWISE_CONV_2D.
    public let floatDepthwiseConv2D: @Sendable (_ params: DepthwiseConv2DParams, _ inputShape: NHWC, _ filterShape: NHWC,
                                                _ outputShape: NHWC, _ threadCount: Int) -> FloatDepthwiseConv2DKernel
    /// Float FULLY_CONNECTED with constant `[outputDepth, inputDepth]` weights: packs them.
    public let floatFullyConnected: @Sendable (_ params: FullyConnectedParams, _ weights: UnsafePointer<Float>, _ batch: Int,
                                               _ inputDepth: Int, _ outputDepth: Int) -> FloatFullyConnectedKernel
    /// Float TRANSPOSE_CONV (and MediaPipe's Convolution2DTransposeBias) with constant
    /// weights: packs them. The kernel takes no residual.
    public let floatTransposeConv: @Sendable (_ params: TransposeConvParams, _ inputShape: NHWC, _ filter: UnsafePointer<Float>,
                                              _ filterShape: NHWC, _ outputShape: NHWC, _ threadCount: Int) -> FloatConv2DKernel
    /// Int8 CONV_2D with constant symmetric weights and a constant bias (or none).
    public let int8Conv2D: @Sendable (_ params: QuantizedConvParams, _ filter: UnsafePointer<Int8>, _ filterShape: NHWC,
                                      _ bias: UnsafePointer<Int32>?, _ inputShape: NHWC, _ outputShape: NHWC,
                                      _ threadCount: Int) -> Int8Kernel?
    /// Int8 DEPTHWISE_CONV_2D with constant symmetric weights and a constant bias (or none).
    public let int8DepthwiseConv2D: @Sendable (_ params: QuantizedConvParams, _ depthMultiplier: Int, _ filter: UnsafePointer<Int8>,
                                               _ filterShape: NHWC, _ bias: UnsafePointer<Int32>?, _ inputShape: NHWC,
                                               _ outputShape: NHWC, _ threadCount: Int) -> Int8Kernel?
    /// Int8 FULLY_CONNECTED with constant symmetric `[outputDepth, inputDepth]` weights, read
    /// in place, and a constant bias (or none).
    public let int8FullyConnected: @Sendable (_ params: QuantizedFullyConnectedParams, _ filter: UnsafePointer<Int8>, _ batch: Int,
                                              _ inputDepth: Int, _ outputDepth: Int, _ bias: UnsafePointer<Int32>?) -> Int8Kernel
    /// Hybrid CONV_2D (float activations, constant symmetric int8 weights with one scale per
    /// output channel), not grouped.
    public let hybridConv2D: @Sendable (_ params: HybridConvParams, _ filter: UnsafePointer<Int8>, _ filterShape: NHWC,
                                        _ inputShape: NHWC, _ outputShape: NHWC, _ threadCount: Int) -> HybridKernel
    /// Hybrid DEPTHWISE_CONV_2D (float activations, constant symmetric int8 weights with one
    /// scale per channel); nil for a depth multiplier other than 1.
    public let hybridDepthwiseConv2D: @Sendable (_ params: HybridConvParams, _ depthMultiplier: Int, _ filter: UnsafePointer<Int8>,
                                                 _ filterShape: NHWC, _ inputShape: NHWC, _ outputShape: NHWC,
                                                 _ threadCount: Int) -> HybridKernel?
    /// Hybrid FULLY_CONNECTED of `batch` float rows with constant symmetric `[outputDepth,
    /// inputDepth]` int8 weights, read in place, with one scale or one per output channel.
    public let hybridFullyConnected: @Sendable (_ filter: UnsafePointer<Int8>, _ filterScales: [Float], _ batch: Int,
                                                _ inputDepth: Int, _ outputDepth: Int, _ activation: ActivationRange<Float>,
                                                _ asymmetricInputs: Bool) -> HybridKernel
    /// FULLY_CONNECTED of `batch` float rows with constant blockwise int4 weights.
    public let blockwiseInt4FullyConnected: @Sendable (_ weights: BlockwiseInt4Weights, _ batch: Int,
                                                       _ activation: ActivationRange<Float>) -> HybridKernel
    /// Int8 ADD of two same-shaped tensors of `count` elements, prepared once; nil where its
    /// scales fall outside the variant's exact form.
    public let int8Add: @Sendable (_ params: QuantizedAddParams, _ count: Int) -> ((BinaryOperands<Int8>, ThreadPool) -> Void)?
    /// Int8 MEAN of an input seen as `[outer, rows, inner]` over its rows; nil where the
    /// variant's requantiser does not take the rescale.
    public let int8Mean: @Sendable (_ params: QuantizedMeanSumParams, _ outer: Int, _ rows: Int, _ inner: Int)
        -> ((UnaryOperands<Int8>, ThreadPool) -> Void)?
    /// Float SUM, or MEAN when `divides`, of an input seen as `[outer, rows, inner]` over
    /// its rows (`rows > 0`).
    public let floatSumOrMean: @Sendable (_ divides: Bool, _ outer: Int, _ rows: Int, _ inner: Int)
        -> (UnaryOperands<Float>, ThreadPool) -> Void
    /// CAST of `count` uint8 or int8 (`signed`) values to float32.
    public let bytesToFloat: @Sendable (_ signed: Bool, _ input: UnsafeRawPointer, _ output: UnsafeMutablePointer<Float>,
                                        _ count: Int, _ pool: ThreadPool) -> Void
    /// Float RESIZE_BILINEAR; nil for fewer channels than a vector holds.
    public let floatResizeBilinear: @Sendable (_ params: ResizeParams, _ inputShape: NHWC,
                                               _ outputShape: NHWC) -> ((UnaryOperands<Float>, ThreadPool) -> Void)?
    /// Float MAX_POOL_2D or AVERAGE_POOL_2D; nil for fewer channels than a vector holds.
    public let floatPool: @Sendable (_ reduction: PoolingReduction, _ params: PoolParams, _ inputShape: NHWC,
                                     _ outputShape: NHWC) -> ((UnaryOperands<Float>, ThreadPool) -> Void)?
    /// Float ADD, SUB, MUL or DIV with its clamp, over a broadcast plan; nil for the other
    /// operators and the strided layout.
    public let floatArithmetic: @Sendable (_ op: BinaryOperator, _ plan: BroadcastPlan,
                                           _ activation: ActivationRange<Float>) -> ((BinaryOperands<Float>, ThreadPool) -> Void)?
    /// Float PRELU (input, alpha) over a broadcast plan; nil for the strided layout.
    public let floatPrelu: @Sendable (_ plan: BroadcastPlan) -> ((BinaryOperands<Float>, ThreadPool) -> Void)?
    /// A float activation over `count` elements; nil where only the reference computes it.
    public let floatActivation: @Sendable (_ function: UnaryFunction, _ count: Int) -> ((UnaryOperands<Float>, ThreadPool) -> Void)?

    /// Assembles a variant (each variant module does this once, from its own copy of the kernels).
    public init(instructionSet: InstructionSet, floatGEMMTile: (rows: Int, columns: Int), int8GEMMTile: (rows: Int, columns: Int),
                floatConv2D: @escaping @Sendable (Conv2DParams, NHWC, UnsafePointer<Float>, NHWC, NHWC, Int) -> FloatConv2DKernel?,
                floatDepthwiseConv2D: @escaping @Sendable (DepthwiseConv2DParams, NHWC, NHWC, NHWC, Int) -> FloatDepthwiseConv2DKernel,
                floatFullyConnected: @escaping @Sendable (FullyConnectedParams, UnsafePointer<Float>, Int, Int, Int) -> FloatFullyConnectedKernel,
                floatTransposeConv: @escaping @Sendable (TransposeConvParams, NHWC, UnsafePointer<Float>, NHWC, NHWC, Int) -> FloatConv2DKernel,
                int8Conv2D: @escaping @Sendable (QuantizedConvParams, UnsafePointer<Int8>, NHWC, UnsafePointer<Int32>?, NHWC, NHWC, Int) -> Int8Kernel?,
                int8DepthwiseConv2D: @escaping @Sendable (QuantizedConvParams, Int, UnsafePointer<Int8>, NHWC, UnsafePointer<Int32>?,
                                                          NHWC, NHWC, Int) -> Int8Kernel?,
                int8FullyConnected: @escaping @Sendable (QuantizedFullyConnectedParams, UnsafePointer<Int8>, Int, Int, Int,
                                                         UnsafePointer<Int32>?) -> Int8Kernel,
                hybridConv2D: @escaping @Sendable (HybridConvParams, UnsafePointer<Int8>, NHWC, NHWC, NHWC, Int) -> HybridKernel,
                hybridDepthwiseConv2D: @escaping @Sendable (HybridConvParams, Int, UnsafePointer<Int8>, NHWC, NHWC, NHWC,
                                                            Int) -> HybridKernel?,
                hybridFullyConnected: @escaping @Sendable (UnsafePointer<Int8>, [Float], Int, Int, Int, ActivationRange<Float>,
                                                           Bool) -> HybridKernel,
                blockwiseInt4FullyConnected: @escaping @Sendable (BlockwiseInt4Weights, Int, ActivationRange<Float>) -> HybridKernel,
                int8Add: @escaping @Sendable (QuantizedAddParams, Int) -> ((BinaryOperands<Int8>, ThreadPool) -> Void)?,
                int8Mean: @escaping @Sendable (QuantizedMeanSumParams, Int, Int, Int) -> ((UnaryOperands<Int8>, ThreadPool) -> Void)?,
                floatSumOrMean: @escaping @Sendable (Bool, Int, Int, Int) -> (UnaryOperands<Float>, ThreadPool) -> Void,
                bytesToFloat: @escaping @Sendable (Bool, UnsafeRawPointer, UnsafeMutablePointer<Float>, Int, ThreadPool) -> Void,
                floatResizeBilinear: @escaping @Sendable (ResizeParams, NHWC, NHWC) -> ((UnaryOperands<Float>, ThreadPool) -> Void)?,
                floatPool: @escaping @Sendable (PoolingReduction, PoolParams, NHWC, NHWC) -> ((UnaryOperands<Float>, ThreadPool) -> Void)?,
                floatArithmetic: @escaping @Sendable (BinaryOperator, BroadcastPlan, ActivationRange<Float>)
                    -> ((BinaryOperands<Float>, ThreadPool) -> Void)?,
                floatPrelu: @escaping @Sendable (BroadcastPlan) -> ((BinaryOperands<Float>, ThreadPool) -> Void)?,
                floatActivation: @escaping @Sendable (UnaryFunction, Int) -> ((UnaryOperands<Float>, ThreadPool) -> Void)?) {
        self.instructionSet = instructionSet
        self.floatGEMMTile = floatGEMMTile
        self.int8GEMMTile = int8GEMMTile
        self.floatConv2D = floatConv2D
        self.floatDepthwiseConv2D = floatDepthwiseConv2D
        self.floatFullyConnected = floatFullyConnected
        self.floatTransposeConv = floatTransposeConv
        self.int8Conv2D = int8Conv2D
        self.int8DepthwiseConv2D = int8DepthwiseConv2D
        self.int8FullyConnected = int8FullyConnected
        self.hybridConv2D = hybridConv2D
        self.hybridDepthwiseConv2D = hybridDepthwiseConv2D
        self.hybridFullyConnected = hybridFullyConnected
        self.blockwiseInt4FullyConnected = blockwiseInt4FullyConnected
        self.int8Add = int8Add
        self.int8Mean = int8Mean
        self.floatSumOrMean = floatSumOrMean
        self.bytesToFloat = bytesToFloat
        self.floatResizeBilinear = floatResizeBilinear
        self.floatPool = floatPool
        self.floatArithmetic = floatArithmetic
        self.floatPrelu = floatPrelu
        self.floatActivation = floatActivation
    }

    /// The baseline variant, compiled into this module for the platform's minimum instruction set.
    public static let baseline: OptimizedKernels = perISAKernels()
}
