extension Pooling.Quantized {
    /// The data an int8 pooling reads and writes.
    public struct Operands {
        public var input: UnsafePointer<Int8>
        public var output: UnsafeMutablePointer<Int8>

        public init(input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>) {
            self.input = input
            self.output = output
        }
    }

    /// Int8 AVERAGE_POOL_2D's kernel: channel blocks split across the threads, the reference
    /// kernel for `.referenceOnly`.
    public static func planAverage(_ params: QuantizedPoolParams, inputShape: NHWC, outputShape: NHWC,
                                   using choice: KernelChoice) -> PlannedKernel<Operands> {
        guard choice.optimizedKernels != nil else {
            return PlannedKernel(name: "average-pool2d.i8.reference") { o, _ in
                average(params, input: o.input, inputShape: inputShape, output: o.output, outputShape: outputShape)
            }
        }
        return PlannedKernel(name: "average-pool2d.i8.channel-blocks") { o, pool in
            averageOptimized(params, input: o.input, inputShape: inputShape, output: o.output, outputShape: outputShape, pool: pool)
        }
    }
}
