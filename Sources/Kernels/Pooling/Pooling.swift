/// Float AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D over NHWC tensors. As in TFLite, each
/// window is clipped to the input: padding never enters an average, a maximum or a norm.
public enum Pooling {
    /// AVERAGE_POOL_2D: the mean of the in-bounds window elements (0 when none is in bounds).
    /// Output rows are split across `threads`.
    public static func average(params: PoolParams, input: UnsafePointer<Float>, inputShape: NHWC,
                               output: UnsafeMutablePointer<Float>, outputShape: NHWC, threads: ThreadPool? = nil) {
        ThreadPool.split(threads, count: outputShape.batch * outputShape.height, work: work(params, outputShape)) { rows in
            pool(params, input, inputShape, output, outputShape, rows: rows, initial: 0, accumulate: { $0 + $1 },
                 finish: { sum, count in count == 0 ? 0 : sum / Float(count) })
        }
    }

    /// MAX_POOL_2D: the largest in-bounds window element, taken as TFLite's `std::max(max, x)`
    /// does (a tie or a NaN element keeps the maximum so far). Output rows are split across
    /// `threads`.
    public static func max(params: PoolParams, input: UnsafePointer<Float>, inputShape: NHWC,
                           output: UnsafeMutablePointer<Float>, outputShape: NHWC, threads: ThreadPool? = nil) {
        ThreadPool.split(threads, count: outputShape.batch * outputShape.height, work: work(params, outputShape)) { rows in
            pool(params, input, inputShape, output, outputShape, rows: rows, initial: -Float.greatestFiniteMagnitude,
                 accumulate: { $0 < $1 ? $1 : $0 }, finish: { m, _ in m })
        }
    }

    /// L2_POOL_2D: the square root of the mean square of the in-bounds window elements.
    public static func l2(params: PoolParams, input: UnsafePointer<Float>, inputShape: NHWC,
                          output: UnsafeMutablePointer<Float>, outputShape: NHWC) {
        pool(params, input, inputShape, output, outputShape, rows: 0..<(outputShape.batch * outputShape.height),
             initial: 0, accumulate: { $0 + $1 * $1 }, finish: { sum, count in count == 0 ? 0 : (sum / Float(count)).squareRoot() })
    }

    /// Element operations of a pooling node, to decide whether to split it.
    package static func work(_ params: PoolParams, _ outputShape: NHWC) -> Int {
        outputShape.elementCount * params.filterHeight * params.filterWidth
    }

    /// Output rows `rows` (indexed `batch * outputHeight + y`) of a pooling node.
    @inline(__always)
    static func pool(_ params: PoolParams, _ input: UnsafePointer<Float>, _ inputShape: NHWC,
                     _ output: UnsafeMutablePointer<Float>, _ outputShape: NHWC, rows: Range<Int>, initial: Float,
                     accumulate: (Float, Float) -> Float, finish: (Float, Int) -> Float) {
        let channels = outputShape.channels
        for row in rows {
            let b = row / outputShape.height, oy = row % outputShape.height
            let ys = params.windowRows(outputRow: oy, inputHeight: inputShape.height)
            for ox in 0..<outputShape.width {
                let xs = params.windowColumns(outputColumn: ox, inputWidth: inputShape.width)
                let count = ys.count * xs.count
                let out = output + ((b * outputShape.height + oy) * outputShape.width + ox) * channels
                // Taps outermost, channels innermost: every pass reads one contiguous input
                // pixel and updates the whole output pixel, so the channel loops vectorise.
                // Each channel still accumulates its taps in (y, x) order.
                for c in 0..<channels { out[c] = initial }
                for iy in ys {
                    let source = input + (b * inputShape.height + iy) * inputShape.width * channels
                    for ix in xs {
                        let tap = source + ix * channels
                        for c in 0..<channels { out[c] = accumulate(out[c], tap[c]) }
                    }
                }
                let lo = params.activation.min, hi = params.activation.max
                for c in 0..<channels { out[c] = Swift.min(Swift.max(finish(out[c], count), lo), hi) }
            }
        }
    }
}
