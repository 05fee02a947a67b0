/// Options for a ``FaceDetector``; the defaults are those of MediaPipe's face detector.
public struct FaceDetectorOptions: Sendable, BatchImageTaskOptions {
    /// The model: MediaPipe's BlazeFace short-range detector (`face_detection_short_range.tflite`)
    /// or one with the same inputs, outputs and anchors.
    public var localModel: LocalModel
    /// Faces scoring below this are dropped (kept when at or above it); MediaPipe's
    /// `min_detection_confidence`, default 0.5.
    public var minDetectionConfidence: Float = 0.5
    /// Detections overlapping a better one by more than this intersection over union are
    /// merged into it (MediaPipe's `min_suppression_threshold`), default 0.3.
    public var minSuppressionThreshold: Float = 0.3
    /// At most this many faces are returned, best first (default: all found).
    public var maxResultCount: Int?
    /// Worker threads of the detector's interpreter (nil: one per core).
    public var threadCount: Int?

    /// Options for `localModel` with the defaults.
    public init(localModel: LocalModel) {
        self.localModel = localModel
    }
}
