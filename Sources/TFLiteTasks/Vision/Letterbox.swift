/// How an image is fitted into a model input with its aspect ratio kept, as MediaPipe's
/// `ImageToTensorCalculator` does with `keep_aspect_ratio`: the image's rectangle is widened
/// (or heightened), about its centre, to the input's aspect ratio, and that region of interest
/// fills the input; what lies outside the image is black (`BORDER_ZERO`).
///
/// Coordinates are continuous: the image spans 0...width by 0...height, the input 0...1
/// across (normalised), as in MediaPipe's projection of detections back onto the image.
public struct Letterbox: Sendable, Equatable {
    /// The image's size.
    public let imageWidth: Int, imageHeight: Int
    /// The model input's size.
    public let inputWidth: Int, inputHeight: Int
    /// The region of interest in image pixels: its left and top edges (zero or negative: the
    /// padding) and its size, which has the input's aspect ratio.
    public let roiX: Double, roiY: Double, roiWidth: Double, roiHeight: Double

    /// The letterbox of a `imageWidth` x `imageHeight` image in a `inputWidth` x
    /// `inputHeight` input; all sizes must be positive.
    public init(imageWidth: Int, imageHeight: Int, inputWidth: Int, inputHeight: Int) {
        precondition(imageWidth > 0 && imageHeight > 0 && inputWidth > 0 && inputHeight > 0, "sizes must be positive")
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        // MediaPipe's PadRoi, in float as it computes it.
        let inputAspect = Float(inputHeight) / Float(inputWidth)
        let imageAspect = Float(imageHeight) / Float(imageWidth)
        let width: Float, height: Float
        if inputAspect > imageAspect {
            width = Float(imageWidth)
            height = Float(imageWidth) * inputAspect
        } else {
            width = Float(imageHeight) / inputAspect
            height = Float(imageHeight)
        }
        roiWidth = Double(width)
        roiHeight = Double(height)
        roiX = (Double(imageWidth) - roiWidth) / 2
        roiY = (Double(imageHeight) - roiHeight) / 2
    }

    /// The image pixel coordinates of a point given in input coordinates normalised to
    /// [0, 1]. Points in the padding map outside the image.
    public func imagePoint(normalizedX x: Float, normalizedY y: Float) -> (x: Float, y: Float) {
        (Float(Double(x) * roiWidth + roiX), Float(Double(y) * roiHeight + roiY))
    }
}
