import Imaging

/// The resampling of MediaPipe's `ImageToTensorCalculator` on the CPU: OpenCV's
/// `warpPerspective` with `INTER_LINEAR` and a zero border, from a region of interest of the
/// image (an axis-aligned rectangle, possibly reaching past the image) to the whole output.
///
/// OpenCV maps the region's corners to the output's corners and samples output pixel `(x, y)`
/// at image point `roiX + x * roiWidth / outWidth` (pixel centres at whole coordinates), in
/// fixed point: the point rounded to 1/32 pixel, the four neighbours weighted in units of
/// 1/1024 and the sum rounded. There is no antialiasing. Neighbours outside the image count
/// as black. Reproducing this (rather than resizing with another filter) makes the model see
/// the same pixels as under MediaPipe.
enum MediaPipeResampler {
    /// OpenCV's `INTER_BITS`: sub-pixel positions per pixel.
    private static let subpixelBits = 5
    private static let subpixels = 1 << subpixelBits

    /// The `outWidth` x `outHeight` image sampled from the region `roi*` of the 8-bit `image`.
    static func warp(_ image: Image, roiX: Double, roiY: Double, roiWidth: Double, roiHeight: Double,
                     outWidth: Int, outHeight: Int) throws(ImageError) -> Image {
        guard outWidth > 0, outHeight > 0, roiWidth > 0, roiHeight > 0, roiWidth.isFinite, roiHeight.isFinite else {
            throw .invalidArgument("cannot map a \(roiWidth)x\(roiHeight) region to \(outWidth)x\(outHeight)")
        }
        let source = image.to8Bit()
        guard let pixels = source.pixels8 else { throw .invalidArgument("the warp needs 8-bit samples") }
        let c = source.channels, w = source.width, h = source.height
        let xs = taps(count: outWidth, start: roiX, step: roiWidth / Double(outWidth))
        let ys = taps(count: outHeight, start: roiY, step: roiHeight / Double(outHeight))
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * c)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                // A neighbour outside the image reads as black.
                func sample(_ x: Int, _ y: Int, _ k: Int) -> Int {
                    x >= 0 && x < w && y >= 0 && y < h ? Int(src[(y * w + x) * c + k]) : 0
                }
                for (oy, ty) in ys.enumerated() {
                    let fy = ty.fraction, y0 = ty.index
                    for (ox, tx) in xs.enumerated() {
                        let fx = tx.fraction, x0 = tx.index
                        // Weights in 1/1024: OpenCV's 15-bit coefficients are these times 32.
                        let w00 = (subpixels - fx) * (subpixels - fy), w01 = fx * (subpixels - fy)
                        let w10 = (subpixels - fx) * fy, w11 = fx * fy
                        let o = (oy * outWidth + ox) * c
                        for k in 0..<c {
                            let sum = w00 * sample(x0, y0, k) + w01 * sample(x0 + 1, y0, k)
                                + w10 * sample(x0, y0 + 1, k) + w11 * sample(x0 + 1, y0 + 1, k)
                            dst[o + k] = UInt8(min(255, (sum + 512) >> 10))
                        }
                    }
                }
            }
        }
        return try Image(width: outWidth, height: outHeight, pixelLayout: source.pixelLayout, pixels: out)
    }

    /// Per output index along one axis: the source pixel left of (or above) the sample point
    /// and the point's sub-pixel position, 0..<32.
    private static func taps(count: Int, start: Double, step: Double) -> [(index: Int, fraction: Int)] {
        (0..<count).map { i in
            let scaled = (start + Double(i) * step) * Double(subpixels)
            // OpenCV rounds half to even (cvRound); clamped to keep far-off regions finite.
            let position = Int(min(max(scaled, -1e9), 1e9).rounded(.toNearestOrEven))
            return (position >> subpixelBits, position & (subpixels - 1))
        }
    }
}
