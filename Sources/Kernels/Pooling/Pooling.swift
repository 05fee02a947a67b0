/// What prepare computes once for a float pooling node.
public struct PoolParams: Sendable {
    /// Strides and padding (dilations are ignored: TFLite pooling has none).
    public var geometry: ConvGeometry
    /// Window height.
    public var filterHeight: Int
    /// Window width.
    public var filterWidth: Int
    /// The fused activation as a clamp.
    public var activation: ActivationRange<Float>

    /// Creates the parameters of one pooling node.
    public init(geometry: ConvGeometry, filterHeight: Int, filterWidth: Int, activation: ActivationRange<Float>) {
        self.geometry = geometry
        self.filterHeight = filterHeight
        self.filterWidth = filterWidth
        self.activation = activation
    }
}

/// Float AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D over NHWC tensors. As in TFLite, each
/// window is clipped to the input: padding never enters an average, a maximum or a norm.
public enum Pooling {
    /// AVERAGE_POOL_2D: the mean of the in-bounds window elements (0 when none is in bounds).
    public static func average(params: PoolParams, input: UnsafePointer<Float>, inputShape: NHWC,
                               output: UnsafeMutablePointer<Float>, outputShape: NHWC) {
        pool(params, input, inputShape, output, outputShape, initial: 0, accumulate: { $0 + $1 },
             finish: { sum, count in count == 0 ? 0 : sum / Float(count) })
    }

    /// MAX_POOL_2D: the largest in-bounds window element.
    public static func max(params: PoolParams, input: UnsafePointer<Float>, inputShape: NHWC,
                           output: UnsafeMutablePointer<Float>, outputShape: NHWC) {
        pool(params, input, inputShape, output, outputShape, initial: -Float.greatestFiniteMagnitude,
             accumulate: { Swift.max($0, $1) }, finish: { m, _ in m })
    }

    /// L2_POOL_2D: the square root of the mean square of the in-bounds window elements.
    public static func l2(params: PoolParams, input: UnsafePointer<Float>, inputShape: NHWC,
                          output: UnsafeMutablePointer<Float>, outputShape: NHWC) {
        pool(params, input, inputShape, output, outputShape, initial: 0, accumulate: { $0 + $1 * $1 },
             finish: { sum, count in count == 0 ? 0 : (sum / Float(count)).squareRoot() })
    }

    @inline(__always)
    static func pool(_ params: PoolParams, _ input: UnsafePointer<Float>, _ inputShape: NHWC,
                     _ output: UnsafeMutablePointer<Float>, _ outputShape: NHWC, initial: Float,
                     accumulate: (Float, Float) -> Float, finish: (Float, Int) -> Float) {
        let g = params.geometry
        let channels = outputShape.channels
        for b in 0..<outputShape.batch {
            for oy in 0..<outputShape.height {
                let iy0 = oy * g.strideHeight - g.paddingHeight.before
                let fyStart = Swift.max(0, -iy0), fyEnd = Swift.min(params.filterHeight, inputShape.height - iy0)
                for ox in 0..<outputShape.width {
                    let ix0 = ox * g.strideWidth - g.paddingWidth.before
                    let fxStart = Swift.max(0, -ix0), fxEnd = Swift.min(params.filterWidth, inputShape.width - ix0)
                    let count = Swift.max(0, fyEnd - fyStart) * Swift.max(0, fxEnd - fxStart)
                    let out = output + ((b * outputShape.height + oy) * outputShape.width + ox) * channels
                    // Taps outermost, channels innermost: every pass reads one contiguous input
                    // pixel and updates the whole output pixel, so the channel loops vectorise.
                    // Each channel still accumulates its taps in (y, x) order.
                    for c in 0..<channels { out[c] = initial }
                    if fyStart < fyEnd && fxStart < fxEnd {
                        for fy in fyStart..<fyEnd {
                            let row = input + ((b * inputShape.height + iy0 + fy) * inputShape.width + ix0) * channels
                            for fx in fxStart..<fxEnd {
                                let tap = row + fx * channels
                                for c in 0..<channels { out[c] = accumulate(out[c], tap[c]) }
                            }
                        }
                    }
                    let lo = params.activation.min, hi = params.activation.max
                    for c in 0..<channels { out[c] = Swift.min(Swift.max(finish(out[c], count), lo), hi) }
                }
            }
        }
    }
}
