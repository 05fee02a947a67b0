#if TFLITE_ISA_MODULE
import Kernels
#endif
extension Resize {
    /// Float RESIZE_BILINEAR over whole vectors of channels; nil for fewer channels than a
    /// vector holds.
    ///
    /// The reference (``Resize/bilinear(params:input:inputShape:output:outputShape:threads:)``)
    /// works out every output pixel's source columns again in every row and blends eight
    /// channels at a time; here the columns and their weights are worked out once, at prepare,
    /// and each pixel blends ``FloatLanes`` channels at a time, its last partial vector
    /// overlapping the one before. Each channel is the reference's expression, same operations in the same order,
    /// so the result is the reference's bit for bit. Output rows are split across the pool.
    static func bilinearChannelVectors(params: ResizeParams, inputShape: NHWC,
                                       outputShape: NHWC) -> ((UnaryOperands<Float>, ThreadPool) -> Void)? {
        let channels = inputShape.channels, lanes = FloatLanes.scalarCount
        guard channels >= lanes else { return nil }
        let rowScale = scale(input: inputShape.height, output: outputShape.height, alignCorners: params.alignCorners)
        let columnScale = scale(input: inputShape.width, output: outputShape.width, alignCorners: params.alignCorners)
        let columns = (0..<outputShape.width).map { x in
            let (fx, x0, x1) = source(x, columnScale, params.halfPixelCenters, inputShape.width)
            return (x0: x0, x1: x1, dx: fx - Float(x0))
        }
        let inputRow = inputShape.width * channels
        return { o, pool in
            // Four multiply-adds per output element, as the reference counts them.
            ThreadPool.split(pool, count: outputShape.batch * outputShape.height, work: outputShape.elementCount * 4) { rows in
                for row in rows {
                    let b = row / outputShape.height, y = row % outputShape.height
                    let (fy, y0, y1) = source(y, rowScale, params.halfPixelCenters, inputShape.height)
                    let dy = fy - Float(y0)
                    let top = o.input + (b * inputShape.height + y0) * inputRow
                    let bottom = o.input + (b * inputShape.height + y1) * inputRow
                    let wy0 = FloatLanes(repeating: 1 - dy), wy1 = FloatLanes(repeating: dy)
                    var out = o.output + row * outputShape.width * channels
                    for (x0, x1, dx) in columns {
                        let wx0 = FloatLanes(repeating: 1 - dx), wx1 = FloatLanes(repeating: dx)
                        let p00 = top + x0 * channels, p01 = top + x1 * channels
                        let p10 = bottom + x0 * channels, p11 = bottom + x1 * channels
                        @inline(__always) func load(_ p: UnsafePointer<Float>, _ c: Int) -> FloatLanes {
                            UnsafeRawPointer(p + c).loadUnaligned(as: FloatLanes.self)
                        }
                        var c = 0
                        while c < channels {
                            let start = Swift.min(c, channels - lanes)
                            let v = load(p00, start) * wy0 * wx0 + load(p10, start) * wy1 * wx0
                                + load(p01, start) * wy0 * wx1 + load(p11, start) * wy1 * wx1
                            UnsafeMutableRawPointer(out + start).storeBytes(of: v, as: FloatLanes.self)
                            c += lanes
                        }
                        out += channels
                    }
                }
            }
        }
    }
}
