/// SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND on 4-D NHWC tensors of any element type (the runtime
/// views a 3-D `[N, H, C]` tensor as `[N, H, 1, C]` with block width 1).
public enum SpaceBatch {
    /// SPACE_TO_BATCH_ND: pads the spatial axes, then moves each `blockHeight x blockWidth` phase
    /// into its own batch: `output[(sy*blockWidth + sx)*N + b, y, x, c] =
    /// padded[b, y*blockHeight + sy, x*blockWidth + sx, c]`. Padding holds `padValue` (one
    /// element; zeros when nil).
    public static func spaceToBatch(input: UnsafeRawPointer, inputShape: NHWC, blockHeight: Int, blockWidth: Int,
                                    padTop: Int, padLeft: Int, padValue: UnsafeRawPointer?,
                                    elementSize: Int, output: UnsafeMutableRawPointer, outputShape: NHWC) {
        let run = inputShape.channels * elementSize
        forEachBatchedPixel(batched: outputShape, spatial: inputShape, blockHeight: blockHeight, blockWidth: blockWidth,
                            top: padTop, left: padLeft) { o, i in
            if let i {
                (output + o * run).copyMemory(from: input + i * run, byteCount: run)
            } else {
                IndexMapCopy.fill(output + o * run, padValue, count: inputShape.channels, elementSize: elementSize)
            }
        }
    }

    /// BATCH_TO_SPACE_ND, the inverse: `output[b, y*blockHeight + sy - cropTop, x*blockWidth +
    /// sx - cropLeft, c] = input[(sy*blockWidth + sx)*N + b, y, x, c]`, dropping cropped positions.
    public static func batchToSpace(input: UnsafeRawPointer, inputShape: NHWC, blockHeight: Int, blockWidth: Int,
                                    cropTop: Int, cropLeft: Int, elementSize: Int,
                                    output: UnsafeMutableRawPointer, outputShape: NHWC) {
        let run = inputShape.channels * elementSize
        forEachBatchedPixel(batched: inputShape, spatial: outputShape, blockHeight: blockHeight, blockWidth: blockWidth,
                            top: cropTop, left: cropLeft) { i, o in
            if let o { (output + o * run).copyMemory(from: input + i * run, byteCount: run) }
        }
    }

    /// Calls `body(batchedPixel, spatialPixel)` for every pixel of the batched tensor with the
    /// pixel of the spatial tensor it corresponds to, nil where that falls in the padding or
    /// the crop: batched pixel `(ob, y, x)` is phase `(sy, sx)` of spatial batch `b`, at
    /// `(y * blockHeight + sy - top, x * blockWidth + sx - left)`. Both directions move the
    /// same pixels; only which side is read differs.
    @inline(__always)
    static func forEachBatchedPixel(batched: NHWC, spatial: NHWC, blockHeight: Int, blockWidth: Int, top: Int, left: Int,
                                    _ body: (Int, Int?) -> Void) {
        for ob in 0..<batched.batch {
            let b = ob % spatial.batch, phase = ob / spatial.batch
            let sy = phase / blockWidth, sx = phase % blockWidth
            for y in 0..<batched.height {
                let iy = y * blockHeight + sy - top
                for x in 0..<batched.width {
                    let ix = x * blockWidth + sx - left
                    let inside = iy >= 0 && iy < spatial.height && ix >= 0 && ix < spatial.width
                    body((ob * batched.height + y) * batched.width + x, inside ? (b * spatial.height + iy) * spatial.width + ix : nil)
                }
            }
        }
    }
}
