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
        for ob in 0..<outputShape.batch {
            let b = ob % inputShape.batch, phase = ob / inputShape.batch
            let sy = phase / blockWidth, sx = phase % blockWidth
            for y in 0..<outputShape.height {
                let iy = y * blockHeight + sy - padTop
                for x in 0..<outputShape.width {
                    let ix = x * blockWidth + sx - padLeft
                    let dst = output + ((ob * outputShape.height + y) * outputShape.width + x) * run
                    if iy >= 0 && iy < inputShape.height && ix >= 0 && ix < inputShape.width {
                        dst.copyMemory(from: input + ((b * inputShape.height + iy) * inputShape.width + ix) * run, byteCount: run)
                    } else {
                        IndexMapCopy.fill(dst, padValue, count: inputShape.channels, elementSize: elementSize)
                    }
                }
            }
        }
    }

    /// BATCH_TO_SPACE_ND, the inverse: `output[b, y*blockHeight + sy - cropTop, x*blockWidth +
    /// sx - cropLeft, c] = input[(sy*blockWidth + sx)*N + b, y, x, c]`, dropping cropped positions.
    public static func batchToSpace(input: UnsafeRawPointer, inputShape: NHWC, blockHeight: Int, blockWidth: Int,
                                    cropTop: Int, cropLeft: Int, elementSize: Int,
                                    output: UnsafeMutableRawPointer, outputShape: NHWC) {
        let run = inputShape.channels * elementSize
        for ib in 0..<inputShape.batch {
            let b = ib % outputShape.batch, phase = ib / outputShape.batch
            let sy = phase / blockWidth, sx = phase % blockWidth
            for y in 0..<inputShape.height {
                let oy = y * blockHeight + sy - cropTop
                if oy < 0 || oy >= outputShape.height { continue }
                for x in 0..<inputShape.width {
                    let ox = x * blockWidth + sx - cropLeft
                    if ox < 0 || ox >= outputShape.width { continue }
                    (output + ((b * outputShape.height + oy) * outputShape.width + ox) * run)
                        .copyMemory(from: input + ((ib * inputShape.height + y) * inputShape.width + x) * run, byteCount: run)
                }
            }
        }
    }
}
