extension Activations {
    /// The data a float activation reads and writes (they may alias).
    public struct Operands {
        public var input: UnsafePointer<Float>
        public var output: UnsafeMutablePointer<Float>

        public init(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
            self.input = input
            self.output = output
        }
    }

    /// A float activation's kernel: vectors split across the threads, the scalar reference
    /// for `.referenceOnly`. `family` begins its name (the op's, as the runtime spells it).
    public static func plan(_ function: UnaryFunction, count: Int, family: String,
                            using choice: KernelChoice) -> PlannedKernel<Operands> {
        guard choice.optimizedKernels != nil else {
            return PlannedKernel(name: family + ".f32.reference") { o, _ in
                reference(function, input: o.input, output: o.output, count: count)
            }
        }
        return PlannedKernel(name: family + ".f32.vectorized") { o, pool in
            apply(function, input: o.input, output: o.output, count: count, threads: pool)
        }
    }
}
