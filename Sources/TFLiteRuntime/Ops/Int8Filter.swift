import Kernels

/// The filter of a quantised or hybrid convolution (or quantised FULLY_CONNECTED) as int8
/// values: an int8 tensor's own, or those of a constant int4 filter, widened once at prepare.
/// LiteRT unpacks int4 filters to int8 and runs its int8 kernels on them, so the int8 kernels
/// here serve both.
struct Int8Filter {
    let tensor: Int
    /// The widened values of an int4 filter; nil for an int8 one.
    let widened: AlignedBuffer?

    /// The values while the kernel runs.
    @inline(__always)
    func values(_ c: InvokeContext) -> UnsafeMutablePointer<Int8> {
        widened?.pointer.assumingMemoryBound(to: Int8.self) ?? c.data(tensor, as: Int8.self)
    }

    /// The values at prepare when they are constant, for kernels that repack their weights; a
    /// kernel that reads them in place must keep this filter alive.
    func constantValues(_ w: TensorInfo) -> UnsafeRawPointer? {
        widened.map { UnsafeRawPointer($0.pointer) } ?? w.constantData
    }
}

extension PrepareContext {
    /// `w` as int8 filter values; an int4 filter must be constant, as converters write it.
    func int8Filter(_ w: TensorInfo) throws(InterpreterError) -> Int8Filter {
        guard w.type == .int4 else { return Int8Filter(tensor: w.index, widened: nil) }
        guard let data = w.constantData else { throw unsupported("a non-constant INT4 filter") }
        let widened = AlignedBuffer(byteCount: w.elementCount)
        PackedInt4.unpack(data.assumingMemoryBound(to: UInt8.self), from: 0, count: w.elementCount,
                          into: widened.pointer.assumingMemoryBound(to: Int8.self))
        return Int8Filter(tensor: w.index, widened: widened)
    }
}
