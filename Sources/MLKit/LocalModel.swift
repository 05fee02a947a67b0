import Foundation
internal import TFLiteTasks

/// A model file on the device (ML Kit's `LocalModel`): a `.tflite` classifier, or an AutoML
/// Vision Edge bundle named by its `manifest.json`. Creating one never fails, as in ML Kit;
/// a missing or invalid model is reported by the labeller made from it.
public class LocalModel: @unchecked Sendable {
    /// The `.tflite` file, or nil for a model given by its manifest.
    public let path: String?
    /// The AutoML bundle's `manifest.json`, or nil for a model given by its file.
    public let manifestPath: String?

    /// A `.tflite` model; labels come from its TFLite metadata, if any.
    public init(path: String) {
        self.path = path
        manifestPath = nil
    }

    /// An AutoML Vision Edge bundle: `manifest.json` beside its `model.tflite` and `dict.txt`.
    public init(manifestPath: String) {
        path = nil
        self.manifestPath = manifestPath
    }

    /// Loads the model (each labeller made from it loads it once).
    func load() throws(NSError) -> TFLiteTasks.LocalModel {
        do {
            if let manifestPath { return try TFLiteTasks.LocalModel(manifestPath: manifestPath) }
            return try TFLiteTasks.LocalModel(path: path ?? "")
        } catch {
            throw VisionError.failed(error)
        }
    }
}
