/// Options for an ``ImageLabeler`` over a custom model (ML Kit's `CustomImageLabelerOptions`).
public struct CustomImageLabelerOptions: Sendable, BatchImageTaskOptions {
    /// The model (plain `.tflite` or AutoML bundle).
    public var localModel: LocalModel
    /// Labels below this confidence are dropped (ML Kit's semantics: kept when at or above
    /// it). Nil means the metadata's score threshold when the model has one, else 0, and then
    /// labels of confidence exactly 0 are dropped too; set 0 to list them.
    public var confidenceThreshold: Float?
    /// At most this many labels are returned (default 10).
    public var maxResultCount: Int = 10
    /// Cut the image to its centred square before resizing (default false: the whole image is
    /// scaled to the model input, as ML Kit does).
    public var cropsToSquare = false
    /// Worker threads of the labeller's interpreter (nil: one per core).
    public var threadCount: Int?

    /// Options for `localModel` with the defaults.
    public init(localModel: LocalModel) {
        self.localModel = localModel
    }
}
