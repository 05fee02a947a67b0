/// ARG_MAX / ARG_MIN over one axis of a quantised tensor: the stored values compare like the
/// real ones (the scale is positive), so no dequantisation is needed. Ties give the first
/// index, as TFLite's strict comparison does.
///
/// - Parameters:
///   - outer: the product of the extents before `axis`.
///   - axisSize: the extent of `axis` (at least 1).
///   - inner: the product of the extents after `axis`.
///   - output: `outer * inner` indices, written as `Index` (int32 or int64).
@_specialize(exported: true, where T == Int8, Index == Int32)
@_specialize(exported: true, where T == Int8, Index == Int64)
@_specialize(exported: true, where T == UInt8, Index == Int32)
@_specialize(exported: true, where T == UInt8, Index == Int64)
public func quantizedArgMinMax<T: QuantizedElement, Index: FixedWidthInteger>(
    isMax: Bool, input: UnsafePointer<T>, outer: Int, axisSize: Int, inner: Int,
    output: UnsafeMutablePointer<Index>
) {
    for o in 0..<outer {
        for i in 0..<inner {
            var best = input[o * axisSize * inner + i]
            var bestIndex = 0
            for k in 1..<max(axisSize, 1) {
                let v = input[(o * axisSize + k) * inner + i]
                if isMax ? v > best : v < best {
                    best = v
                    bestIndex = k
                }
            }
            output[o * inner + i] = Index(bestIndex)
        }
    }
}
