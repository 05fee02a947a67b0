extension Elementwise.Quantized {
    /// Reference quantised SQUARED_DIFFERENCE with broadcasting (int8, uint8, int16), its
    /// parameters from ``QuantizedAddParams/makeSquaredDifference(input1:input2:output:qmin:qmax:)``.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    public static func squaredDifference<T: QuantizedElement>(
        _ params: QuantizedAddParams,
        _ a: UnsafePointer<T>, shape aShape: [Int],
        _ b: UnsafePointer<T>, shape bShape: [Int],
        output: UnsafeMutablePointer<T>, outputShape: [Int]
    ) {
        let shift = Int32(1) << Int32(params.leftShift)
        forEachBroadcastElement(a: aShape, b: bShape, output: outputShape) { i, j, o in
            let x = params.input1Multiplier.apply((Int32(a[i]) &+ params.input1Offset) &* shift)
            let y = params.input2Multiplier.apply((Int32(b[j]) &+ params.input2Offset) &* shift)
            let d = x &- y
            let value = params.outputMultiplier.apply(d &* d) &+ params.outputOffset
            output[o] = T(clampedQuantized: params.activation.clamp(value))
        }
    }
}
