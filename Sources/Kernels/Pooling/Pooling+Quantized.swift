extension Pooling.Quantized {
    /// Reference quantised AVERAGE_POOL_2D (int8, uint8, int16), as TFLite's reference kernels:
    /// the sum over the in-bounds part of the window divided by the in-bounds count, rounding half
    /// away from zero, then clamped.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    @_specialize(exported: true, where T == Int16)
    public static func average<T: QuantizedElement>(
        _ params: QuantizedPoolParams,
        input: UnsafePointer<T>, inputShape: NHWC,
        output: UnsafeMutablePointer<T>, outputShape: NHWC
    ) {
        forEachPoolWindow(params, inputShape: inputShape, outputShape: outputShape) { b, c, ys, xs, o in
            var acc: Int32 = 0
            var count: Int32 = 0
            for iy in ys {
                for ix in xs {
                    acc &+= Int32(input[((b * inputShape.height + iy) * inputShape.width + ix) * inputShape.channels + c])
                    count += 1
                }
            }
            output[o] = T(clampedQuantized: params.clampedAverage(sum: acc, count: count))
        }
    }

    /// Reference quantised MAX_POOL_2D (int8, uint8, int16): the window maximum, clamped.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    @_specialize(exported: true, where T == Int16)
    public static func maxPool<T: QuantizedElement>(
        _ params: QuantizedPoolParams,
        input: UnsafePointer<T>, inputShape: NHWC,
        output: UnsafeMutablePointer<T>, outputShape: NHWC
    ) {
        forEachPoolWindow(params, inputShape: inputShape, outputShape: outputShape) { b, c, ys, xs, o in
            var maximum = T.quantizedMin
            for iy in ys {
                for ix in xs {
                    maximum = max(maximum, Int32(input[((b * inputShape.height + iy) * inputShape.width + ix) * inputShape.channels + c]))
                }
            }
            output[o] = T(clampedQuantized: params.activation.clamp(maximum))
        }
    }
}

/// Calls `body(batch, channel, inputRows, inputColumns, outputIndex)` for every output element,
/// with the window clipped to the input as TFLite clips it.
@inline(__always)
func forEachPoolWindow(_ params: QuantizedPoolParams, inputShape: NHWC, outputShape: NHWC,
                       _ body: (Int, Int, Range<Int>, Range<Int>, Int) -> Void) {
    for b in 0..<outputShape.batch {
        for oy in 0..<outputShape.height {
            let ys = params.windowRows(outputRow: oy, inputHeight: inputShape.height)
            for ox in 0..<outputShape.width {
                let xs = params.windowColumns(outputColumn: ox, inputWidth: inputShape.width)
                for c in 0..<outputShape.channels {
                    body(b, c, ys, xs, ((b * outputShape.height + oy) * outputShape.width + ox) * outputShape.channels + c)
                }
            }
        }
    }
}

extension QuantizedPoolParams {
    /// The average of a window's `count` values summing to `sum`, rounded half away from zero,
    /// then clamped. An empty window cannot occur for shapes prepare accepted; it gives the
    /// clamped zero rather than a division by zero.
    @inline(__always)
    func clampedAverage(sum: Int32, count: Int32) -> Int32 {
        guard count > 0 else { return activation.clamp(0) }
        return activation.clamp(sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count)
    }
}
