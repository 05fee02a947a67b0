import Dispatch
import Foundation
internal import TFLiteTasks

/// What ``ImageLabeler/process(_:completion:)`` calls back with: labels, or an error.
public typealias ImageLabelingCallback = ([ImageLabel]?, (any Error)?) -> Void

/// Labels images with a custom classification model (ML Kit's `ImageLabeler`).
///
/// ```swift
/// let options = CustomImageLabelerOptions(localModel: LocalModel(path: "Models/efficientnet_lite0.tflite"))
/// options.confidenceThreshold = 0.1
/// let labeler = ImageLabeler.imageLabeler(options: options)
/// labeler.process(image) { labels, error in
///     guard error == nil, let labels else { return }
///     for label in labels { print(label.text, label.confidence, label.index) }
/// }
/// ```
public final class ImageLabeler: @unchecked Sendable {
    /// The labeller, or why it could not be made; options are read once, at creation.
    private let labeler: Result<TFLiteTasks.ImageLabeler, NSError>
    private let work = DispatchQueue(label: "MLKit.ImageLabeler")

    private init(options: CustomImageLabelerOptions) {
        labeler = Result { () throws(NSError) in
            let model = try options.model().load()
            var settings = TFLiteTasks.CustomImageLabelerOptions(localModel: model)
            // ML Kit's rule, zero-confidence labels included: an unset threshold is the
            // metadata's score threshold, else 0.
            settings.confidenceThreshold = options.confidenceThreshold?.floatValue
                ?? model.metadata?.outputs.first?.scoreThreshold ?? 0
            settings.maxResultCount = options.maxResultCount
            do { return try TFLiteTasks.ImageLabeler(options: settings) } catch { throw VisionError.failed(error) }
        }
    }

    /// A labeller with these options. It never fails here: an unusable model is reported by
    /// every call that labels.
    public static func imageLabeler(options: CustomImageLabelerOptions) -> ImageLabeler {
        ImageLabeler(options: options)
    }

    /// Labels `image` off the calling thread and calls `completion` on the main queue, as ML
    /// Kit does; in a command-line program the main queue runs under `dispatchMain()` or a
    /// run loop.
    public func process(_ image: VisionImage, completion: @escaping ImageLabelingCallback) {
        let labeler = self.labeler, task = Result { () throws(NSError) in try image.taskImage }
        nonisolated(unsafe) let completion = completion
        work.async {
            let outcome = Result { () throws(NSError) in try Self.labels(labeler, task.get()) }
            DispatchQueue.main.async {
                switch outcome {
                case .success(let labels): completion(labels, nil)
                case .failure(let error): completion(nil, error)
                }
            }
        }
    }

    /// The labels of `image`, best first, on the calling thread.
    public func results(in image: VisionImage) throws -> [ImageLabel] {
        try Self.labels(labeler, image.taskImage)
    }

    private static func labels(_ labeler: Result<TFLiteTasks.ImageLabeler, NSError>,
                               _ image: TFLiteTasks.VisionImage) throws(NSError) -> [ImageLabel] {
        let labeler = try labeler.get()
        do {
            return try labeler.results(in: image).map { ImageLabel(text: $0.text, confidence: $0.confidence, index: $0.index) }
        } catch {
            throw VisionError.failed(error, code: .internalError)
        }
    }
}
