import Kernels
import KernelSelection

/// Every instruction-set variant of the optimised kernels this host can run, lowest first: the
/// tests of optimised paths take it as an argument, so each runs once per variant.
let hostVariants: [InstructionSet] = KernelSelection.supported.map(\.instructionSet)

/// The kernels of one variant.
func kernels(_ isa: InstructionSet) -> OptimizedKernels {
    let k = KernelSelection.kernels(atMost: isa)
    precondition(k.instructionSet == isa, "\(isa) is not supported here")
    return k
}

/// A float CONV_2D through `variant`, with fresh NaN-filled scratch and output.
func optimizedConv2D(_ variant: InstructionSet, _ params: Conv2DParams, _ input: [Float], _ inShape: NHWC,
                     _ filter: [Float], _ fShape: NHWC, _ bias: [Float]?, _ outShape: NHWC, pool: ThreadPool,
                     residual: [Float]? = nil, residualChannels: Int = 0) -> [Float] {
    let kernel = filter.withUnsafeBufferPointer {
        kernels(variant).floatConv2D(params, inShape, $0.baseAddress!, fShape, outShape, pool.threadCount)!
    }
    var scratch = [Float](repeating: .nan, count: kernel.scratchFloatCount)
    var out = [Float](repeating: .nan, count: outShape.elementCount)
    let skip = residual ?? []
    input.withUnsafeBufferPointer { i in
        (bias ?? []).withUnsafeBufferPointer { b in
            skip.withUnsafeBufferPointer { r in
                scratch.withUnsafeMutableBufferPointer { s in
                    out.withUnsafeMutableBufferPointer { o in
                        kernel.run(input: i.baseAddress!, bias: bias == nil ? nil : b.baseAddress,
                                   residual: residual == nil ? nil : GEMMResidual(base: r.baseAddress!, channels: residualChannels),
                                   output: o.baseAddress!, scratch: s.baseAddress, pool: pool)
                    }
                }
            }
        }
    }
    return out
}
