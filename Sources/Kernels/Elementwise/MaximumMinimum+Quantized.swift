extension Elementwise.Quantized {
    /// Quantised MAXIMUM with broadcasting: the larger stored value (inputs and output share one
    /// quantisation, as TFLite requires for these ops).
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    @_specialize(exported: true, where T == Int16)
    public static func maximum<T: QuantizedElement>(_ a: UnsafePointer<T>, shape aShape: [Int],
                                                    _ b: UnsafePointer<T>, shape bShape: [Int],
                                                    output: UnsafeMutablePointer<T>, outputShape: [Int]) {
        forEachBroadcastElement(a: aShape, b: bShape, output: outputShape) { i, j, o in
            output[o] = max(a[i], b[j])
        }
    }

    /// Quantised MINIMUM with broadcasting: the smaller stored value.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    @_specialize(exported: true, where T == Int16)
    public static func minimum<T: QuantizedElement>(_ a: UnsafePointer<T>, shape aShape: [Int],
                                                    _ b: UnsafePointer<T>, shape bShape: [Int],
                                                    output: UnsafeMutablePointer<T>, outputShape: [Int]) {
        forEachBroadcastElement(a: aShape, b: bShape, output: outputShape) { i, j, o in
            output[o] = min(a[i], b[j])
        }
    }
}
