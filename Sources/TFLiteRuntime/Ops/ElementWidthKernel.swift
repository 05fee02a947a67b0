import Kernels

/// Makes the kernel of an op that moves elements without computing on them (SELECT, FILL), so
/// that one kernel per element width serves every type of that width.
protocol ElementWidthKernelMaker {
    func make<T: BitwiseCopyable>(_: T.Type) -> NodeKernel
}

/// The kernel `maker` makes for elements of `size` bytes, nil for a size no integer has.
func elementWidthKernel<M: ElementWidthKernelMaker>(size: Int, _ maker: M) -> NodeKernel? {
    switch size {
    case 1: return maker.make(UInt8.self)
    case 2: return maker.make(UInt16.self)
    case 4: return maker.make(UInt32.self)
    case 8: return maker.make(UInt64.self)
    default: return nil
    }
}
