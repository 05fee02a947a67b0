extension Conv2D {
    /// The data a float CONV_2D reads and writes.
    public struct Operands {
        public var input: UnsafePointer<Float>
        public var filter: UnsafePointer<Float>
        public var bias: UnsafePointer<Float>?
        /// The operand of a residual ADD folded into the convolution, or nil.
        public var residual: GEMMResidual?
        public var output: UnsafeMutablePointer<Float>
        public var scratch: UnsafeMutableRawPointer

        public init(input: UnsafePointer<Float>, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?, residual: GEMMResidual?,
                    output: UnsafeMutablePointer<Float>, scratch: UnsafeMutableRawPointer) {
            self.input = input
            self.filter = filter
            self.bias = bias
            self.residual = residual
            self.output = output
            self.scratch = scratch
        }
    }

    /// Float CONV_2D's kernel: the variant's packed paths for constant weights of a convolution
    /// that is not grouped, the reference kernel otherwise.
    public static func plan(params: Conv2DParams, inputShape: NHWC, filter: PlannedOperand<Float>, filterShape: NHWC,
                            outputShape: NHWC, threadCount: Int, using choice: KernelChoice) -> PlannedKernel<Operands> {
        if let kernels = choice.optimizedKernels, let weights = filter.constant,
           let optimized = kernels.floatConv2D(params, inputShape, weights, filterShape, outputShape, threadCount) {
            return PlannedKernel(name: optimized.name, scratchBytes: 4 * optimized.scratchFloatCount) { o, pool in
                optimized.run(input: o.input, bias: o.bias, residual: o.residual, output: o.output,
                              scratch: o.scratch.assumingMemoryBound(to: Float.self), pool: pool)
            }
        }
        // With a folded residual the reference kernel runs without activation, then the ADD
        // (of zeros past the residual's columns) and the activation follow.
        let linear = Conv2DParams(geometry: params.geometry, activation: ActivationRange(min: -.infinity, max: .infinity))
        return PlannedKernel(name: "conv2d.f32.reference") { o, _ in
            guard let residual = o.residual else {
                reference(params: params, input: o.input, inputShape: inputShape, filter: o.filter, filterShape: filterShape,
                          bias: o.bias, output: o.output, outputShape: outputShape)
                return
            }
            reference(params: linear, input: o.input, inputShape: inputShape, filter: o.filter, filterShape: filterShape,
                      bias: o.bias, output: o.output, outputShape: outputShape)
            let n = outputShape.channels
            for pixel in 0..<(outputShape.elementCount / Swift.max(1, n)) {
                for k in 0..<n {
                    let add = k < residual.columns ? residual.base[pixel * residual.rowStride + k] : 0
                    o.output[pixel * n + k] = params.activation.clamp(o.output[pixel * n + k] + add)
                }
            }
        }
    }
}

extension Conv2D.Quantized {
    /// The data an int8 CONV_2D reads and writes.
    public struct Operands {
        public var input: UnsafePointer<Int8>
        public var filter: UnsafePointer<Int8>
        public var bias: UnsafePointer<Int32>?
        public var output: UnsafeMutablePointer<Int8>
        public var scratch: UnsafeMutableRawPointer

        public init(input: UnsafePointer<Int8>, filter: UnsafePointer<Int8>, bias: UnsafePointer<Int32>?,
                    output: UnsafeMutablePointer<Int8>, scratch: UnsafeMutableRawPointer) {
            self.input = input
            self.filter = filter
            self.bias = bias
            self.output = output
            self.scratch = scratch
        }
    }

    /// Int8 CONV_2D's kernel: the variant's kernels, which repack constant symmetric weights
    /// once with the input offset folded into a constant bias, for a convolution that is not
    /// grouped; the reference kernel otherwise.
    public static func plan(_ params: QuantizedConvParams, inputShape: NHWC, filter: PlannedOperand<Int8>, filterShape: NHWC,
                            bias: PlannedOperand<Int32>, outputShape: NHWC, threadCount: Int,
                            using choice: KernelChoice) -> PlannedKernel<Operands> {
        if let kernels = choice.optimizedKernels, params.filterOffset == 0, inputShape.channels == filterShape.channels,
           let weights = filter.constant, bias.isKnown,
           let optimized = kernels.int8Conv2D(params, weights, filterShape, bias.constant, inputShape, outputShape, threadCount) {
            return PlannedKernel(optimized)
        }
        return PlannedKernel(name: "conv2d.i8.reference") { o, _ in
            reference(params, input: o.input, inputShape: inputShape, filter: o.filter, filterShape: filterShape, bias: o.bias,
                      output: o.output, outputShape: outputShape)
        }
    }
}

extension PlannedKernel where Operands == Conv2D.Quantized.Operands {
    /// An int8 convolution a variant prepared, which reads only its input and output.
    init(_ kernel: Int8Kernel) {
        self.init(name: kernel.name, scratchBytes: kernel.scratchBytes) { o, pool in
            kernel.run(input: o.input, output: o.output, scratch: o.scratch.assumingMemoryBound(to: Int8.self), pool: pool)
        }
    }
}
