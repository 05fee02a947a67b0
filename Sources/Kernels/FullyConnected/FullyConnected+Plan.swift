extension FullyConnected {
    /// The data a float FULLY_CONNECTED reads and writes.
    public struct Operands {
        public var input: UnsafePointer<Float>
        public var weights: UnsafePointer<Float>
        public var bias: UnsafePointer<Float>?
        public var output: UnsafeMutablePointer<Float>

        public init(input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
                    output: UnsafeMutablePointer<Float>) {
            self.input = input
            self.weights = weights
            self.bias = bias
            self.output = output
        }
    }

    /// Float FULLY_CONNECTED's kernel: the variant's GEMM over constant weights packed once,
    /// the reference kernel otherwise.
    public static func plan(params: FullyConnectedParams, batch: Int, inputDepth: Int, outputDepth: Int,
                            weights: PlannedOperand<Float>, using choice: KernelChoice) -> PlannedKernel<Operands> {
        guard let kernels = choice.optimizedKernels, let constant = weights.constant else {
            return PlannedKernel(name: "fully-connected.f32.reference") { o, _ in
                reference(params: params, input: o.input, batch: batch, inputDepth: inputDepth, weights: o.weights,
                          outputDepth: outputDepth, bias: o.bias, output: o.output)
            }
        }
        let optimized = kernels.floatFullyConnected(params, constant, batch, inputDepth, outputDepth)
        return PlannedKernel(name: optimized.name) { o, pool in
            optimized.run(input: o.input, bias: o.bias, output: o.output, pool: pool)
        }
    }
}

extension FullyConnected.Quantized {
    /// The data an int8 FULLY_CONNECTED reads and writes.
    public struct Operands {
        public var input: UnsafePointer<Int8>
        public var filter: UnsafePointer<Int8>
        public var bias: UnsafePointer<Int32>?
        public var output: UnsafeMutablePointer<Int8>

        public init(input: UnsafePointer<Int8>, filter: UnsafePointer<Int8>, bias: UnsafePointer<Int32>?,
                    output: UnsafeMutablePointer<Int8>) {
            self.input = input
            self.filter = filter
            self.bias = bias
            self.output = output
        }
    }

    /// Int8 FULLY_CONNECTED's kernel: the variant's dot products over constant symmetric
    /// weights, read in place (the caller keeps them alive), with a constant bias; the reference
    /// kernel otherwise.
    public static func plan(_ params: QuantizedFullyConnectedParams, batch: Int, inputDepth: Int, outputDepth: Int,
                            filter: PlannedOperand<Int8>, bias: PlannedOperand<Int32>,
                            using choice: KernelChoice) -> PlannedKernel<Operands> {
        guard let kernels = choice.optimizedKernels, params.filterOffset == 0, let weights = filter.constant, bias.isKnown else {
            return PlannedKernel(name: "fully-connected.i8.reference") { o, _ in
                reference(params, input: o.input, batches: batch, inputDepth: inputDepth, filter: o.filter, outputDepth: outputDepth,
                          bias: o.bias, output: o.output)
            }
        }
        let optimized = kernels.int8FullyConnected(params, weights, batch, inputDepth, outputDepth, bias.constant)
        return PlannedKernel(name: optimized.name, scratchBytes: optimized.scratchBytes) { o, pool in
            optimized.run(input: o.input, output: o.output, scratch: nil, pool: pool)
        }
    }
}

extension FullyConnected.BlockwiseInt4 {
    /// The data a FULLY_CONNECTED with blockwise int4 weights reads and writes.
    public struct Operands {
        public var input: UnsafePointer<Float>
        public var bias: UnsafePointer<Float>?
        public var output: UnsafeMutablePointer<Float>
        public var scratch: UnsafeMutablePointer<Int8>

        public init(input: UnsafePointer<Float>, bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>,
                    scratch: UnsafeMutablePointer<Int8>) {
            self.input = input
            self.bias = bias
            self.output = output
            self.scratch = scratch
        }
    }

    /// FULLY_CONNECTED's kernel for float input and constant blockwise int4 weights: the
    /// variant's, or the reference kernel for `.referenceOnly`.
    public static func plan(weights: BlockwiseInt4Weights, batch: Int, activation: ActivationRange<Float>,
                            using choice: KernelChoice) -> PlannedKernel<Operands> {
        guard let kernels = choice.optimizedKernels else {
            return PlannedKernel(name: "fully-connected.f32-i4.blockwise-reference",
                                 scratchBytes: FullyConnected.blockwiseInt4ScratchBytes(batches: batch, inputDepth: weights.columns)) {
                o, _ in
                reference(weights: weights, input: o.input, batches: batch, bias: o.bias, activation: activation, output: o.output,
                          scratch: o.scratch)
            }
        }
        let optimized = kernels.blockwiseInt4FullyConnected(weights, batch, activation)
        return PlannedKernel(name: optimized.name, scratchBytes: optimized.scratchBytes) { o, pool in
            optimized.run(input: o.input, bias: o.bias, output: o.output, scratch: o.scratch, pool: pool)
        }
    }
}
