import Imaging

/// Where an image lands in a model input when it is scaled to fit with its aspect ratio kept
/// and the rest of the input left black (MediaPipe's `ImageToTensorCalculator` with
/// `keep_aspect_ratio` and `BORDER_ZERO`), and how input coordinates map back to the image.
///
/// The image is scaled by `min(inputWidth / width, inputHeight / height)` and centred; its
/// rectangle in the input is rounded to whole pixels, and the mapping back uses that
/// rectangle, so a point maps to the image pixel the model actually saw there.
public struct Letterbox: Sendable, Equatable {
    /// The image's size.
    public let imageWidth: Int, imageHeight: Int
    /// The model input's size.
    public let inputWidth: Int, inputHeight: Int
    /// The scaled image's rectangle in input pixels (the rest of the input is padding).
    public let contentX: Int, contentY: Int, contentWidth: Int, contentHeight: Int

    /// The letterbox of a `imageWidth` x `imageHeight` image in a `inputWidth` x
    /// `inputHeight` input; all sizes must be positive.
    public init(imageWidth: Int, imageHeight: Int, inputWidth: Int, inputHeight: Int) {
        precondition(imageWidth > 0 && imageHeight > 0 && inputWidth > 0 && inputHeight > 0, "sizes must be positive")
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        let scale = min(Double(inputWidth) / Double(imageWidth), Double(inputHeight) / Double(imageHeight))
        contentWidth = min(inputWidth, max(1, Int((Double(imageWidth) * scale).rounded())))
        contentHeight = min(inputHeight, max(1, Int((Double(imageHeight) * scale).rounded())))
        contentX = (inputWidth - contentWidth) / 2
        contentY = (inputHeight - contentHeight) / 2
    }

    /// The image pixel coordinates of a point given in input coordinates normalised to
    /// [0, 1] (0 the input's left or top edge, 1 its right or bottom edge). Points in the
    /// padding map outside the image.
    public func imagePoint(normalizedX x: Float, normalizedY y: Float) -> (x: Float, y: Float) {
        let px = (x * Float(inputWidth) - Float(contentX)) * Float(imageWidth) / Float(contentWidth)
        let py = (y * Float(inputHeight) - Float(contentY)) * Float(imageHeight) / Float(contentHeight)
        return (px, py)
    }

    /// `image` (its size must be the letterbox's image size) scaled into the input with
    /// `method`, on black.
    public func apply(to image: Image, method: ResizeMethod = .pillowBilinear) throws(ImageError) -> Image {
        guard image.width == imageWidth, image.height == imageHeight else {
            throw .invalidArgument("letterbox made for \(imageWidth)x\(imageHeight), given a \(image.width)x\(image.height) image")
        }
        let source = image.to8Bit()
        let scaled = source.width == contentWidth && source.height == contentHeight
            ? source : try source.resized(width: contentWidth, height: contentHeight, method: method)
        let c = scaled.channels
        guard let rows = scaled.pixels8 else { throw .invalidArgument("letterbox needs 8-bit samples") }
        var canvas = [UInt8](repeating: 0, count: inputWidth * inputHeight * c)
        let rowBytes = contentWidth * c
        canvas.withUnsafeMutableBufferPointer { out in
            rows.withUnsafeBufferPointer { src in
                for y in 0..<contentHeight {
                    let to = ((contentY + y) * inputWidth + contentX) * c
                    for i in 0..<rowBytes { out[to + i] = src[y * rowBytes + i] }
                }
            }
        }
        return try Image(width: inputWidth, height: inputHeight, pixelLayout: scaled.pixelLayout, pixels: canvas)
    }
}
