extension Elementwise.Quantized {
    /// Int8 ADD's kernel: the variant's lanes for two operands of the output's shape whose
    /// scales it takes, the broadcasting reference kernel otherwise.
    public static func planAdd(_ params: QuantizedAddParams, aShape: [Int], bShape: [Int], outputShape: [Int],
                               using choice: KernelChoice) -> PlannedKernel<BinaryOperands<Int8>> {
        guard let kernels = choice.optimizedKernels, aShape == outputShape, bShape == outputShape,
              let lanes = kernels.int8Add(params, outputShape.reduce(1, *)) else {
            return PlannedKernel(name: "add.i8.reference") { o, _ in
                rescaledBinary(.add, params, o.a, shape: aShape, o.b, shape: bShape, output: o.output, outputShape: outputShape)
            }
        }
        return PlannedKernel(name: "add.i8.lanes/\(kernels.instructionSet)", run: lanes)
    }
}
