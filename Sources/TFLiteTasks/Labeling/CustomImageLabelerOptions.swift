/// Options for an ``ImageLabeler`` over a custom model (ML Kit's `CustomImageLabelerOptions`).
public struct CustomImageLabelerOptions: Sendable {
    /// The model (plain `.tflite` or AutoML bundle).
    public var localModel: LocalModel
    /// Labels below this confidence are dropped; nil means the metadata's score threshold when
    /// the model has one, else 0.
    public var confidenceThreshold: Float?
    /// At most this many labels are returned (default 10).
    public var maxResultCount: Int = 10
    /// Cut the image to its centred square before resizing (default false: the whole image is
    /// scaled to the model input, as ML Kit does).
    public var cropsToSquare = false

    /// Options for `localModel` with the defaults.
    public init(localModel: LocalModel) {
        self.localModel = localModel
    }
}
