/// A rectangle in image pixels (origin top-left).
public struct PixelRect: Sendable, Equatable, Codable {
    /// Edges in pixels of the displayed image.
    public var left: Float, top: Float, right: Float, bottom: Float

    /// Creates a rectangle.
    public init(left: Float, top: Float, right: Float, bottom: Float) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }
}

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

/// Options for an ``ObjectDetector``.
public struct CustomObjectDetectorOptions: Sendable, BatchImageTaskOptions {
    /// The model: a plain SSD-style `.tflite` or an AutoML detection bundle.
    public var localModel: LocalModel
    /// Detections below this score are dropped (kept when at or above it). Nil means the
    /// metadata's threshold, else 0, and then detections scoring exactly 0 are dropped too.
    public var confidenceThreshold: Float?
    /// At most this many detections are returned (default: all the model reports).
    public var maxResultCount: Int?
    /// Worker threads of the detector's interpreter (nil: one per core).
    public var threadCount: Int?

    /// Options for `localModel` with the defaults.
    public init(localModel: LocalModel) {
        self.localModel = localModel
    }
}
