extension FullyConnected {
    /// Float FULLY_CONNECTED's kernel: the variant's GEMM over constant weights packed once,
    /// the reference kernel otherwise.
    public static func plan(params: FullyConnectedParams, batch: Int, inputDepth: Int, outputDepth: Int,
                            weights: PlannedOperand<Float>, using choice: KernelChoice)
        -> PlannedKernel<WeightedOperands<Float, Float, Float>> {
        guard let kernels = choice.optimizedKernels, let constant = weights.constant else {
            return PlannedKernel(name: "fully-connected.f32.reference") { o, _ in
                reference(params: params, input: o.input, batch: batch, inputDepth: inputDepth, weights: o.filter,
                          outputDepth: outputDepth, bias: o.bias, output: o.output)
            }
        }
        let optimized = kernels.floatFullyConnected(params, constant, batch, inputDepth, outputDepth)
        return PlannedKernel(name: optimized.name, packedItsWeights: true) { o, pool in
            optimized.run(input: o.input, bias: o.bias, output: o.output, pool: pool)
        }
    }
}

extension FullyConnected.Quantized {
    /// Int8 FULLY_CONNECTED's kernel: the variant's dot products over constant symmetric
    /// weights, read in place (the caller keeps them alive), with a constant bias; the reference
    /// kernel otherwise.
    public static func plan(_ params: QuantizedFullyConnectedParams, batch: Int, inputDepth: Int, outputDepth: Int,
                            filter: PlannedOperand<Int8>, bias: PlannedOperand<Int32>,
                            using choice: KernelChoice) -> PlannedKernel<WeightedOperands<Int8, Int8, Int32>> {
        guard let kernels = choice.optimizedKernels, params.filterOffset == 0, let weights = filter.constant, bias.isKnown else {
            return PlannedKernel(name: "fully-connected.i8.reference") { o, _ in
                reference(params, input: o.input, batches: batch, inputDepth: inputDepth, filter: o.filter, outputDepth: outputDepth,
                          bias: o.bias, output: o.output)
            }
        }
        return PlannedKernel(kernels.int8FullyConnected(params, weights, batch, inputDepth, outputDepth, bias.constant))
    }
}

extension FullyConnected.Hybrid {
    /// Hybrid FULLY_CONNECTED's kernel (float activations, int8 weights with one scale or one
    /// per output channel): the variant's dot products over constant weights, read in place
    /// (the caller keeps them alive); the reference kernel otherwise.
    public static func plan(filterScales: [Float], activation: ActivationRange<Float>, asymmetricInputs: Bool, batch: Int,
                            inputDepth: Int, outputDepth: Int, filter: PlannedOperand<Int8>,
                            using choice: KernelChoice) -> PlannedKernel<WeightedOperands<Float, Int8, Float>> {
        guard let kernels = choice.optimizedKernels, let weights = filter.constant else {
            return PlannedKernel(name: "fully-connected.f32-i8.reference",
                                 scratchBytes: hybridScratchCount(batches: batch, batchSize: inputDepth)) { o, _ in
                reference(filterScales: filterScales, activation: activation, asymmetricInputs: asymmetricInputs, input: o.input,
                          batches: batch, inputDepth: inputDepth, filter: .int8(o.filter), outputDepth: outputDepth, bias: o.bias,
                          output: o.output, scratch: o.scratch.assumingMemoryBound(to: Int8.self))
            }
        }
        return PlannedKernel(kernels.hybridFullyConnected(weights, filterScales, batch, inputDepth, outputDepth, activation,
                                                          asymmetricInputs))
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
