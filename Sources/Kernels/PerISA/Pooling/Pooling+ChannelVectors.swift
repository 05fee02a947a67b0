#if TFLITE_ISA_MODULE
import Kernels
#endif
extension Pooling {
    /// Float MAX_POOL_2D or AVERAGE_POOL_2D over whole vectors of channels; nil for fewer
    /// channels than a vector holds.
    ///
    /// Each output pixel keeps ``FloatLanes`` channels of its window in a register while it walks
    /// the taps, where the reference (``Pooling/max(params:input:inputShape:output:outputShape:threads:)``)
    /// loads and stores the output pixel once per tap. Each channel still combines its taps in
    /// (y, x) order with the reference's operations, lane by lane, so the result is the
    /// reference's bit for bit. Output rows are split across the pool.
    static func channelVectors(_ reduction: PoolingReduction, params: PoolParams, inputShape: NHWC,
                               outputShape: NHWC) -> ((UnaryOperands<Float>, ThreadPool) -> Void)? {
        guard outputShape.channels >= FloatLanes.scalarCount else { return nil }
        return { o, pool in channelVectors(reduction, params, o, inputShape, outputShape, pool) }
    }

    private static func channelVectors(_ reduction: PoolingReduction, _ params: PoolParams, _ o: UnaryOperands<Float>,
                                       _ inputShape: NHWC, _ outputShape: NHWC, _ pool: ThreadPool) {
        // The reductions are closure literals inside the threads' body, where they inline into
        // the lane loops.
        ThreadPool.split(pool, count: outputShape.batch * outputShape.height, work: work(params, outputShape)) { rows in
            switch reduction {
            case .max:
                channelVectorRows(rows, params, o, inputShape, outputShape, initial: -.greatestFiniteMagnitude,
                                  accumulate: { $0 < $1 ? $1 : $0 }, finish: { m, _ in m })
            case .average:
                channelVectorRows(rows, params, o, inputShape, outputShape, initial: 0, accumulate: { $0 + $1 },
                                  finish: { sum, count in count == 0 ? FloatLanes() : sum / FloatLanes(repeating: Float(count)) })
            }
        }
    }

    /// Output rows `rows` (indexed `batch * outputHeight + y`). The last vector of a pixel whose
    /// channels are not a whole number of vectors ends at its last channel and recomputes some
    /// channels to the same values.
    @inline(__always)
    private static func channelVectorRows(_ rows: Range<Int>, _ params: PoolParams, _ o: UnaryOperands<Float>,
                                          _ inputShape: NHWC, _ outputShape: NHWC, initial: Float,
                                          accumulate: (Float, Float) -> Float, finish: (FloatLanes, Int) -> FloatLanes) {
        let channels = outputShape.channels, lanes = FloatLanes.scalarCount
        let lo = params.activation.min, hi = params.activation.max
        for row in rows {
            let b = row / outputShape.height, oy = row % outputShape.height
            let ys = params.windowRows(outputRow: oy, inputHeight: inputShape.height)
            let image = o.input + b * inputShape.height * inputShape.width * channels
            for ox in 0..<outputShape.width {
                let xs = params.windowColumns(outputColumn: ox, inputWidth: inputShape.width)
                let count = ys.count * xs.count
                let out = o.output + ((b * outputShape.height + oy) * outputShape.width + ox) * channels
                var c = 0
                while c < channels {
                    let start = Swift.min(c, channels - lanes)
                    var acc = FloatLanes(repeating: initial)
                    for iy in ys {
                        for ix in xs {
                            let tap = UnsafeRawPointer(image + (iy * inputShape.width + ix) * channels + start)
                                .loadUnaligned(as: FloatLanes.self)
                            for i in 0..<lanes { acc[i] = accumulate(acc[i], tap[i]) }
                        }
                    }
                    // A lane loop over the clamp would stay scalar; `clampedLanes` is written per vector type.
                    UnsafeMutableRawPointer(out + start).storeBytes(of: finish(acc, count).clampedLanes(lo, hi), as: FloatLanes.self)
                    c += lanes
                }
            }
        }
    }
}
