
/// One detected object (ML Kit's `Object` with one label).
public struct DetectedObject: Sendable, Equatable {
    /// The object's box in pixels of the displayed (oriented) input image.
    public var frame: PixelRect
    /// The class's label text; empty when the model has no labels.
    public var text: String
    /// The class index.
    public var index: Int
    /// The detection score.
    public var confidence: Float

    /// Creates a detection.
    public init(frame: PixelRect, text: String, index: Int, confidence: Float) {
        self.frame = frame
        self.text = text
        self.index = index
        self.confidence = confidence
    }
}
