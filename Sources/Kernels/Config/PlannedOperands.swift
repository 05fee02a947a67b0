// The tensors' data a planned kernel runs on (``PlannedKernel``), one shape per kind of op.

/// One input and one output (they may alias where the op allows it).
public struct UnaryOperands<Element> {
    public var input: UnsafePointer<Element>
    public var output: UnsafeMutablePointer<Element>

    public init(input: UnsafePointer<Element>, output: UnsafeMutablePointer<Element>) {
        self.input = input
        self.output = output
    }
}

/// Two inputs and one output.
public struct BinaryOperands<Element> {
    public var a: UnsafePointer<Element>
    public var b: UnsafePointer<Element>
    public var output: UnsafeMutablePointer<Element>

    public init(a: UnsafePointer<Element>, b: UnsafePointer<Element>, output: UnsafeMutablePointer<Element>) {
        self.a = a
        self.b = b
        self.output = output
    }
}

/// An input, weights, an optional bias and an output: the convolutions and FULLY_CONNECTED.
/// Reference kernels read the filter here; optimised ones packed theirs at prepare. The
/// filter's type is the activations' except in hybrid kernels (float activations, int8 weights).
public struct WeightedOperands<Element, Filter, Bias> {
    public var input: UnsafePointer<Element>
    public var filter: UnsafePointer<Filter>
    public var bias: UnsafePointer<Bias>?
    public var output: UnsafeMutablePointer<Element>
    public var scratch: UnsafeMutableRawPointer
    /// The operand of a residual ADD folded into a float CONV_2D, or nil.
    public var residual: GEMMResidual?

    public init(input: UnsafePointer<Element>, filter: UnsafePointer<Filter>, bias: UnsafePointer<Bias>?,
                output: UnsafeMutablePointer<Element>, scratch: UnsafeMutableRawPointer, residual: GEMMResidual? = nil) {
        self.input = input
        self.filter = filter
        self.bias = bias
        self.output = output
        self.scratch = scratch
        self.residual = residual
    }
}

extension PlannedKernel where Operands == WeightedOperands<Int8, Int8, Int32> {
    /// An int8 kernel a variant prepared, which reads only its input and output.
    init(_ kernel: Int8Kernel) {
        self.init(name: kernel.name, scratchBytes: kernel.scratchBytes) { o, pool in
            kernel.run(input: o.input, output: o.output, scratch: o.scratch.assumingMemoryBound(to: Int8.self), pool: pool)
        }
    }
}

extension PlannedKernel where Operands == WeightedOperands<Float, Int8, Float> {
    /// A hybrid kernel a variant prepared, which reads its input, bias and output.
    init(_ kernel: HybridKernel) {
        self.init(name: kernel.name, scratchBytes: kernel.scratchBytes) { o, pool in
            kernel.run(input: o.input, bias: o.bias, output: o.output, scratch: o.scratch.assumingMemoryBound(to: Int8.self), pool: pool)
        }
    }
}
