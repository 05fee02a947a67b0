extension Elementwise.Quantized {
    /// Quantised MAXIMUM (`largest`) or MINIMUM with broadcasting: the larger or smaller stored
    /// value (inputs and output share one quantisation, as TFLite requires for these ops). The
    /// two ops differ only in the comparison, so they share one kernel; the choice is made once,
    /// outside the loop.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    @_specialize(exported: true, where T == Int16)
    public static func maximumMinimum<T: QuantizedElement>(largest: Bool,
                                                           _ a: UnsafePointer<T>, shape aShape: [Int],
                                                           _ b: UnsafePointer<T>, shape bShape: [Int],
                                                           output: UnsafeMutablePointer<T>, outputShape: [Int]) {
        if largest {
            forEachBroadcastElement(a: aShape, b: bShape, output: outputShape) { i, j, o in output[o] = max(a[i], b[j]) }
        } else {
            forEachBroadcastElement(a: aShape, b: bShape, output: outputShape) { i, j, o in output[o] = min(a[i], b[j]) }
        }
    }
}
