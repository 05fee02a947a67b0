import Imaging

/// A per-pixel confidence map, row by row (MediaPipe's confidence mask): for the selfie
/// segmenter, how likely each pixel belongs to a person, 0...1.
public struct ConfidenceMask: Sendable, Equatable {
    /// The mask's size in pixels.
    public let width: Int, height: Int
    /// `width * height` confidences, row by row from the top.
    public let values: [Float]

    /// Wraps `values`; throws unless there are `width * height` of them (both positive).
    public init(width: Int, height: Int, values: [Float]) throws(TaskError) {
        try checkMaskSize(width: width, height: height, count: values.count)
        self.width = width
        self.height = height
        self.values = values
    }

    /// The confidence at column `x`, row `y` (both must be inside the mask).
    public subscript(x: Int, y: Int) -> Float {
        values[maskIndex(x: x, y: y, width: width, height: height)]
    }

    /// The mask scaled to `width` x `height` by bilinear interpolation with half-pixel
    /// centres, clamped at the edges (OpenCV's `INTER_LINEAR`, which MediaPipe's segmenter
    /// uses to bring its mask to the image's size).
    public func resized(width outWidth: Int, height outHeight: Int) throws(TaskError) -> ConfidenceMask {
        let (count, overflow) = outWidth.multipliedReportingOverflow(by: outHeight)
        // The limit keeps a mistaken size from allocating without bound (1 GiB of floats).
        guard outWidth > 0, outHeight > 0, !overflow, count <= 1 << 28 else {
            throw .invalidFormat("cannot resize a mask to \(outWidth)x\(outHeight)")
        }
        if outWidth == width && outHeight == height { return self }
        let xs = Self.taps(width, outWidth), ys = Self.taps(height, outHeight)
        var out = [Float](repeating: 0, count: outWidth * outHeight)
        values.withUnsafeBufferPointer { v in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<outHeight {
                    let (y0, y1, fy) = ys[y]
                    for x in 0..<outWidth {
                        let (x0, x1, fx) = xs[x]
                        let top = v[y0 * width + x0] * (1 - fx) + v[y0 * width + x1] * fx
                        let bottom = v[y1 * width + x0] * (1 - fx) + v[y1 * width + x1] * fx
                        o[y * outWidth + x] = top * (1 - fy) + bottom * fy
                    }
                }
            }
        }
        return try ConfidenceMask(width: outWidth, height: outHeight, values: out)
    }

    /// For each output index along one axis: the two source indices and the second's weight.
    private static func taps(_ inSize: Int, _ outSize: Int) -> [(Int, Int, Float)] {
        let scale = Double(inSize) / Double(outSize)
        return (0..<outSize).map { o in
            let centre = (Double(o) + 0.5) * scale - 0.5
            let i0 = Int(centre.rounded(.down))
            if i0 < 0 { return (0, 0, 0) }
            if i0 >= inSize - 1 { return (inSize - 1, inSize - 1, 0) }
            return (i0, i0 + 1, Float(centre - Double(i0)))
        }
    }

    /// The pixels whose confidence is above `threshold` (MediaPipe's category mask uses 0.5).
    public func binaryMask(threshold: Float = 0.5) -> BinaryMask {
        BinaryMask(uncheckedWidth: width, height: height, values: values.map { $0 > threshold })
    }

    /// The mean confidence over all pixels.
    public var mean: Float {
        Float(values.reduce(0.0) { $0 + Double($1) } / Double(values.count))
    }

    /// The mask as an 8-bit gray image, `round(255 * confidence)` (clamped to 0...1).
    public func grayImage() -> Image {
        let pixels = values.map { UInt8((min(max($0, 0), 1) * 255).rounded()) }
        // Width, height and the pixel count were checked when the mask was made.
        return try! Image(width: width, height: height, pixelLayout: .gray, pixels: pixels)
    }
}
