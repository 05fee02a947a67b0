import Foundation

/// What an ``ImageLabeler`` labels with (ML Kit's `CustomImageLabelerOptions`). A class, as
/// in ML Kit, so `let options = ...; options.confidenceThreshold = 0.5` works.
public final class CustomImageLabelerOptions: @unchecked Sendable {
    /// The bundled model, or nil for options made from a remote model.
    public let localModel: LocalModel?
    /// The downloaded model, or nil for options made from a local model.
    public let remoteModel: CustomRemoteModel?
    /// The manager whose cache holds `remoteModel`.
    let modelManager: ModelManager
    /// Labels below this confidence are left out; nil takes the model metadata's score
    /// threshold, or 0 when it has none (then every label counts, zero-confidence ones too,
    /// as in ML Kit).
    public var confidenceThreshold: NSNumber?
    /// At most this many labels are returned, best first (ML Kit's default: 10).
    public var maxResultCount: Int = 10

    public init(localModel: LocalModel) {
        self.localModel = localModel
        remoteModel = nil
        modelManager = .modelManager()
    }

    /// Options for a remote model downloaded by `ModelManager.modelManager()`. As in ML Kit the
    /// model must be downloaded when the labeller is made; a labeller made before reports
    /// "not downloaded" from every call that labels (check `isModelDownloaded` first, and use
    /// a local model otherwise).
    public convenience init(remoteModel: CustomRemoteModel) {
        self.init(remoteModel: remoteModel, modelManager: .modelManager())
    }

    /// Options for a remote model downloaded by `modelManager` (a manager over its own cache).
    public init(remoteModel: CustomRemoteModel, modelManager: ModelManager) {
        localModel = nil
        self.remoteModel = remoteModel
        self.modelManager = modelManager
    }

    /// The model to load: the local one, or the downloaded file of the remote one.
    func model() throws(NSError) -> LocalModel {
        if let localModel { return localModel }
        guard let remoteModel else { throw VisionError.failed("the options name no model") }
        return LocalModel(path: try modelManager.latestPath(remoteModel))
    }
}
