/// Options for a ``SelfieSegmenter``.
public struct SelfieSegmenterOptions: Sendable, BatchImageTaskOptions {
    /// The model: MediaPipe's selfie segmentation (`selfie_segmentation.tflite`), or any
    /// model with one float image input and one confidence channel out.
    public var localModel: LocalModel
    /// Worker threads of the segmenter's interpreter (nil: one per core).
    public var threadCount: Int?

    /// Options for `localModel` with the defaults.
    public init(localModel: LocalModel) {
        self.localModel = localModel
    }
}
