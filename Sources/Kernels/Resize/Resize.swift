/// Spatial resizing of NHWC tensors, with TFLite's exact float coordinate arithmetic.
public enum Resize {
    /// The input-per-output scale along one axis, computed in float as TFLite does.
    @inline(__always)
    package static func scale(input: Int, output: Int, alignCorners: Bool) -> Float {
        if alignCorners && output > 1 { return Float(input - 1) / Float(output - 1) }
        return Float(input) / Float(output)
    }

    /// RESIZE_BILINEAR on float tensors: each output pixel blends the four input pixels around
    /// its source coordinate, clamped at the border (TFLite's `reference_ops::ResizeBilinear`).
    /// Output rows are split across `threads`.
    public static func bilinear(params: ResizeParams, input: UnsafePointer<Float>, inputShape: NHWC,
                                output: UnsafeMutablePointer<Float>, outputShape: NHWC, threads: ThreadPool? = nil) {
        let c = inputShape.channels
        let hs = scale(input: inputShape.height, output: outputShape.height, alignCorners: params.alignCorners)
        let ws = scale(input: inputShape.width, output: outputShape.width, alignCorners: params.alignCorners)
        // Four multiply-adds per output element.
        ThreadPool.split(threads, count: outputShape.batch * outputShape.height, work: outputShape.elementCount * 4) { rows in
            for row in rows {
                let b = row / outputShape.height, y = row % outputShape.height
                let (fy, y0, y1) = source(y, hs, params.halfPixelCenters, inputShape.height)
                let dy = fy - Float(y0)
                for x in 0..<outputShape.width {
                    let (fx, x0, x1) = source(x, ws, params.halfPixelCenters, inputShape.width)
                    let dx = fx - Float(x0)
                    let p00 = input + ((b * inputShape.height + y0) * inputShape.width + x0) * c
                    let p10 = input + ((b * inputShape.height + y1) * inputShape.width + x0) * c
                    let p01 = input + ((b * inputShape.height + y0) * inputShape.width + x1) * c
                    let p11 = input + ((b * inputShape.height + y1) * inputShape.width + x1) * c
                    let out = output + ((b * outputShape.height + y) * outputShape.width + x) * c
                    // Same association as the reference so results match to the bit. Eight
                    // channels at a time by hand: with four source pointers that may alias the
                    // output, the compiler leaves this loop scalar.
                    var ch = 0
                    let wy0 = SIMD8<Float>(repeating: 1 - dy), wy1 = SIMD8<Float>(repeating: dy)
                    let wx0 = SIMD8<Float>(repeating: 1 - dx), wx1 = SIMD8<Float>(repeating: dx)
                    while ch &+ 8 <= c {
                        func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
                            UnsafeRawPointer(p + ch).loadUnaligned(as: SIMD8<Float>.self)
                        }
                        let v = load(p00) * wy0 * wx0 + load(p10) * wy1 * wx0 + load(p01) * wy0 * wx1 + load(p11) * wy1 * wx1
                        UnsafeMutableRawPointer(out + ch).storeBytes(of: v, as: SIMD8<Float>.self)
                        ch &+= 8
                    }
                    while ch < c {
                        out[ch] = p00[ch] * (1 - dy) * (1 - dx) + p10[ch] * dy * (1 - dx)
                            + p01[ch] * (1 - dy) * dx + p11[ch] * dy * dx
                        ch &+= 1
                    }
                }
            }
        }
    }

    /// Source coordinate and the two neighbouring input indices for output index `i`.
    @inline(__always)
    package static func source(_ i: Int, _ scale: Float, _ halfPixel: Bool, _ size: Int) -> (Float, Int, Int) {
        let v = halfPixel ? (Float(i) + 0.5) * scale - 0.5 : Float(i) * scale
        let lower = Swift.max(Int(v.rounded(.down)), 0)
        let upper = Swift.min(Int(v.rounded(.up)), size - 1)
        return (v, lower, upper)
    }

    /// RESIZE_NEAREST_NEIGHBOR on any element type (`elementSize` bytes per element): each
    /// output pixel copies the input pixel TFLite's `GetNearestNeighbor` selects.
    public static func nearestNeighbor(params: ResizeParams, input: UnsafeRawPointer, inputShape: NHWC,
                                       output: UnsafeMutableRawPointer, outputShape: NHWC, elementSize: Int) {
        let pixelBytes = inputShape.channels * elementSize
        for b in 0..<outputShape.batch {
            for y in 0..<outputShape.height {
                let iy = nearest(y, inputShape.height, outputShape.height, params)
                for x in 0..<outputShape.width {
                    let ix = nearest(x, inputShape.width, outputShape.width, params)
                    let src = input + ((b * inputShape.height + iy) * inputShape.width + ix) * pixelBytes
                    let dst = output + ((b * outputShape.height + y) * outputShape.width + x) * pixelBytes
                    dst.copyMemory(from: src, byteCount: pixelBytes)
                }
            }
        }
    }

    /// The input index nearest to output index `i` along an axis.
    @inline(__always)
    static func nearest(_ i: Int, _ inputSize: Int, _ outputSize: Int, _ params: ResizeParams) -> Int {
        let s = scale(input: inputSize, output: outputSize, alignCorners: params.alignCorners)
        let offset: Float = params.halfPixelCenters ? 0.5 : 0
        let v = (Float(i) + offset) * s
        // TfLiteRound rounds half away from zero.
        var index = Swift.min(params.alignCorners ? Int(v.rounded()) : Int(v.rounded(.down)), inputSize - 1)
        if params.halfPixelCenters { index = Swift.max(0, index) }
        return index
    }
}
