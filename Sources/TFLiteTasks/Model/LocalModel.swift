import Foundation
import TFLiteRuntime

/// A model on disk: a plain `.tflite` file, or an AutoML Vision Edge bundle (a model with a
/// labels file, described by `manifest.json` or, for object detection, `tflite_metadata.json`).
///
/// Loading reads and validates the model once; the labels come from the bundle's labels file
/// or, for a plain model, from the label file its TFLite metadata associates with the output.
public final class LocalModel: @unchecked Sendable {
    /// What kind of bundle this model came from.
    public enum Kind: Sendable, Equatable {
        /// A bare `.tflite` file.
        case plain
        /// An AutoML image labelling bundle (`manifest.json`).
        case autoMLImageLabeling
        /// An AutoML object detection bundle (`tflite_metadata.json`).
        case autoMLObjectDetection(AutoMLDetectionMetadata)
    }

    /// The model file's path.
    public let modelPath: String
    /// The loaded, validated model (immutable, shareable).
    public let model: Model
    /// The TFLite metadata, when the model carries it.
    public let metadata: ModelMetadata?
    /// Class labels (line i names class i); empty when the model has none.
    public let labels: [String]
    /// The bundle kind.
    public let kind: Kind

    /// Loads a plain `.tflite` model; labels come from its metadata's first
    /// `TENSOR_AXIS_LABELS` file (looked up in the zip archive appended to the model).
    public convenience init(path: String) throws(TaskError) {
        let model = try Self.load(path)
        let metadata = try Self.metadata(of: model, path: path)
        var labels: [String] = []
        if let file = metadata?.outputs.first?.axisLabelsFile() ?? metadata?.outputs.lazy.compactMap({ $0.axisLabelsFile() }).first {
            guard let archive = try ZipArchive(bytes: model.fileBytes), let bytes = try archive.contents(of: file.name) else {
                throw .unsupportedModel("\(path): metadata names label file '\(file.name)' but the model has no such packed file")
            }
            labels = LabelFile.parse(bytes)
        }
        self.init(modelPath: path, model: model, metadata: metadata, labels: labels, kind: .plain)
    }

    /// Loads an AutoML bundle from its manifest: `manifest.json` (`modelFile`, `labelsFile`,
    /// `modelType`, paths relative to the manifest that must stay inside its folder) or `tflite_metadata.json` (object
    /// detection; the model is the folder's `.tflite` file, labels its `dict.txt`).
    public convenience init(manifestPath: String) throws(TaskError) {
        let url = URL(fileURLWithPath: manifestPath)
        if url.lastPathComponent == AutoMLDetectionMetadata.fileName {
            try self.init(detectionBundle: url.deletingLastPathComponent().path)
            return
        }
        let manifest = try AutoMLManifest.load(manifestPath)
        let dir = url.deletingLastPathComponent()
        let modelPath = try BundleFile.path(manifest.modelFile, in: dir, namedBy: "\(manifestPath) modelFile")
        let labelsPath = try BundleFile.path(manifest.labelsFile, in: dir, namedBy: "\(manifestPath) labelsFile")
        let model = try Self.load(modelPath)
        let labels = try Self.readLabels(labelsPath)
        self.init(modelPath: modelPath, model: model, metadata: try Self.metadata(of: model, path: modelPath),
                  labels: labels, kind: .autoMLImageLabeling)
    }

    /// Loads an AutoML object detection bundle folder: `tflite_metadata.json`, `dict.txt`
    /// and one `.tflite` model.
    public convenience init(detectionBundle directory: String) throws(TaskError) {
        let dir = URL(fileURLWithPath: directory)
        let info = try AutoMLDetectionMetadata.load(dir.appendingPathComponent(AutoMLDetectionMetadata.fileName).path)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let models = names.filter { $0.hasSuffix(".tflite") }.sorted()
        guard models.count == 1 else {
            throw .invalidBundle("\(directory): expected one .tflite model beside \(AutoMLDetectionMetadata.fileName), found \(models.count)")
        }
        let modelPath = dir.appendingPathComponent(models[0]).path
        let model = try Self.load(modelPath)
        let labels = try Self.readLabels(dir.appendingPathComponent("dict.txt").path)
        self.init(modelPath: modelPath, model: model, metadata: try Self.metadata(of: model, path: modelPath),
                  labels: labels, kind: .autoMLObjectDetection(info))
    }

    init(modelPath: String, model: Model, metadata: ModelMetadata?, labels: [String], kind: Kind) {
        self.modelPath = modelPath
        self.model = model
        self.metadata = metadata
        self.labels = labels
        self.kind = kind
    }

    static func load(_ path: String) throws(TaskError) -> Model {
        guard FileManager.default.fileExists(atPath: path) else { throw .fileNotFound(path) }
        do { return try Model(path: path) } catch { throw .unsupportedModel("\(path): \(error)") }
    }

    static func metadata(of model: Model, path: String) throws(TaskError) -> ModelMetadata? {
        do { return try ModelMetadata(model: model) } catch { throw .unsupportedModel("\(path): \(error)") }
    }

    static func readLabels(_ path: String) throws(TaskError) -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .fileNotFound(path) }
        let labels = LabelFile.parse([UInt8](data))
        guard !labels.isEmpty else { throw .invalidBundle("\(path): the labels file is empty") }
        return labels
    }
}

extension LocalModel {
    /// Loads a plain model with labels from a separate labels file (one per line) instead of
    /// its metadata; `labelsPath` nil behaves like ``init(path:)``.
    public convenience init(path: String, labelsPath: String?) throws(TaskError) {
        guard let labelsPath else {
            try self.init(path: path)
            return
        }
        let model = try Self.load(path)
        self.init(modelPath: path, model: model, metadata: try Self.metadata(of: model, path: path),
                  labels: try Self.readLabels(labelsPath), kind: .plain)
    }
}
