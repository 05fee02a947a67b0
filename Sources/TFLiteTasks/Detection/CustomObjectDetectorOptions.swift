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
