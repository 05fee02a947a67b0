// Nodes prepared by an ``OptimizedKernels`` variant: the name of the path they take, what they
// need of scratch memory and the function that runs them. Shapes, parameters and packed weights are captured at prepare, so a
// run passes only the tensors' data.

/// A float CONV_2D prepared by a variant.
public struct FloatConv2DKernel {
    /// The path and the variant, e.g. `conv2d.f32.im2col/avx512` (what `tflite bench
    /// --profile-nodes` prints).
    public let name: String
    /// Floats of scratch memory ``run(input:bias:residual:output:scratch:pool:)`` needs (for the
    /// thread count given at prepare).
    public let scratchFloatCount: Int
    let body: (UnsafePointer<Float>, UnsafePointer<Float>?, GEMMResidual?, UnsafeMutablePointer<Float>,
                         UnsafeMutablePointer<Float>?, ThreadPool) -> Void

    public init(name: String, scratchFloatCount: Int,
                body: @escaping (UnsafePointer<Float>, UnsafePointer<Float>?, GEMMResidual?, UnsafeMutablePointer<Float>,
                                           UnsafeMutablePointer<Float>?, ThreadPool) -> Void) {
        self.name = name
        self.scratchFloatCount = scratchFloatCount
        self.body = body
    }

    /// Runs the convolution; `residual` is a skip connection added before the activation, or nil.
    public func run(input: UnsafePointer<Float>, bias: UnsafePointer<Float>?, residual: GEMMResidual? = nil,
                    output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>?, pool: ThreadPool) {
        body(input, bias, residual, output, scratch, pool)
    }
}

/// A float DEPTHWISE_CONV_2D prepared by a variant (the filter is read at run time).
public struct FloatDepthwiseConv2DKernel {
    /// The path and the variant, e.g. `conv2d.f32.im2col/avx512` (what `tflite bench
    /// --profile-nodes` prints).
    public let name: String
    /// Floats of scratch memory ``run(input:filter:bias:output:scratch:pool:)`` can use; with
    /// none it takes a slower path for border pixels.
    public let scratchFloatCount: Int
    let body: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>?, UnsafeMutablePointer<Float>,
                         UnsafeMutablePointer<Float>?, ThreadPool) -> Void

    public init(name: String, scratchFloatCount: Int,
                body: @escaping (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>?, UnsafeMutablePointer<Float>,
                                           UnsafeMutablePointer<Float>?, ThreadPool) -> Void) {
        self.name = name
        self.scratchFloatCount = scratchFloatCount
        self.body = body
    }

    /// Runs the convolution.
    public func run(input: UnsafePointer<Float>, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
                    output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>?, pool: ThreadPool) {
        body(input, filter, bias, output, scratch, pool)
    }
}

/// A float FULLY_CONNECTED prepared by a variant (weights packed, batch fixed).
public struct FloatFullyConnectedKernel {
    /// The path and the variant, e.g. `conv2d.f32.im2col/avx512` (what `tflite bench
    /// --profile-nodes` prints).
    public let name: String
    let body: (UnsafePointer<Float>, UnsafePointer<Float>?, UnsafeMutablePointer<Float>, ThreadPool) -> Void

    public init(name: String, body: @escaping (UnsafePointer<Float>, UnsafePointer<Float>?, UnsafeMutablePointer<Float>, ThreadPool) -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the product.
    public func run(input: UnsafePointer<Float>, bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>, pool: ThreadPool) {
        body(input, bias, output, pool)
    }
}

/// An int8 convolution or FULLY_CONNECTED prepared by a variant: weights, bias and
/// requantisation captured, so a run takes the input and output data only.
public struct Int8Kernel {
    /// The path and the variant, e.g. `conv2d.f32.im2col/avx512` (what `tflite bench
    /// --profile-nodes` prints).
    public let name: String
    /// Bytes of scratch memory ``run(input:output:scratch:pool:)`` needs (for the thread count
    /// given at prepare); 0 when it needs none.
    public let scratchBytes: Int
    let body: (UnsafePointer<Int8>, UnsafeMutablePointer<Int8>, UnsafeMutablePointer<Int8>?, ThreadPool) -> Void

    public init(name: String, scratchBytes: Int,
                body: @escaping (UnsafePointer<Int8>, UnsafeMutablePointer<Int8>, UnsafeMutablePointer<Int8>?, ThreadPool) -> Void) {
        self.name = name
        self.scratchBytes = scratchBytes
        self.body = body
    }

    /// Runs the node.
    public func run(input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>, scratch: UnsafeMutablePointer<Int8>?,
                    pool: ThreadPool) {
        body(input, output, scratch, pool)
    }
}

/// A hybrid node, float activations with quantised constant weights (a convolution with int8
/// weights, a FULLY_CONNECTED with blockwise int4 ones), prepared by a variant: the weights
/// and shapes are fixed at prepare, the bias is read at run.
public struct HybridKernel {
    /// The path and the variant, e.g. `conv2d.f32-i8.quads/avx512vnni`.
    public let name: String
    /// Bytes of scratch memory ``run(input:bias:output:scratch:pool:)`` needs.
    public let scratchBytes: Int
    let body: (UnsafePointer<Float>, UnsafePointer<Float>?, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Int8>, ThreadPool) -> Void

    public init(name: String, scratchBytes: Int,
                body: @escaping (UnsafePointer<Float>, UnsafePointer<Float>?, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Int8>,
                                 ThreadPool) -> Void) {
        self.name = name
        self.scratchBytes = scratchBytes
        self.body = body
    }

    /// Runs the node.
    public func run(input: UnsafePointer<Float>, bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>,
                    scratch: UnsafeMutablePointer<Int8>, pool: ThreadPool) {
        body(input, bias, output, scratch, pool)
    }
}
