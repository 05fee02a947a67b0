import Foundation

/// What an ``ImageLabeler`` labels with (ML Kit's `CustomImageLabelerOptions`). A class, as
/// in ML Kit, so `let options = ...; options.confidenceThreshold = 0.5` works.
public final class CustomImageLabelerOptions: @unchecked Sendable {
    /// The model.
    public let localModel: LocalModel
    /// Labels below this confidence are left out; nil takes the model metadata's score
    /// threshold, or 0 when it has none (then every label counts, zero-confidence ones too,
    /// as in ML Kit).
    public var confidenceThreshold: NSNumber?
    /// At most this many labels are returned, best first (ML Kit's default: 10).
    public var maxResultCount: Int = 10

    public init(localModel: LocalModel) {
        self.localModel = localModel
    }
}
