import Kernels

/// Makes a node's kernel for one value type and one index type, for the ops that pair values
/// with int32 or int64 indices (ARG_MIN/ARG_MAX, SCATTER_ND, SPARSE_TO_DENSE, TOPK_V2), so that
/// their list of value types (`valueIndexKernel`) is written once.
protocol ValueIndexKernelMaker {
    func make<T: WrappingAddable & Comparable, I: FixedWidthInteger>(_: T.Type, _: I.Type) -> NodeKernel
}

/// The kernel `maker` makes for `value` elements (float32, int8, uint8, int32 or int64, and
/// int16 where `int16` allows it) and int64 indices if `wideIndex`, else int32; nil for
/// another value type.
func valueIndexKernel<M: ValueIndexKernelMaker>(_ maker: M, value: DataType, wideIndex: Bool, int16: Bool = false) -> NodeKernel? {
    func byValue<I: FixedWidthInteger>(_: I.Type) -> NodeKernel? {
        switch value {
        case .float32: return maker.make(Float.self, I.self)
        case .int8: return maker.make(Int8.self, I.self)
        case .uInt8: return maker.make(UInt8.self, I.self)
        case .int16 where int16: return maker.make(Int16.self, I.self)
        case .int32: return maker.make(Int32.self, I.self)
        case .int64: return maker.make(Int64.self, I.self)
        default: return nil
        }
    }
    return wideIndex ? byValue(Int64.self) : byValue(Int32.self)
}
