import Foundation
import TFLiteRuntime

/// Separates people from the background with MediaPipe's selfie segmentation model, as
/// MediaPipe's image segmenter does: the image stretched to the 256 x 256 input and sampled
/// as MediaPipe samples it (``MediaPipeFit/stretch``; values 0...1, or as the model's metadata
/// says), the model's one-channel confidence map taken as it is (the model ends in a sigmoid)
/// and resized back to the image's size bilinearly (``ConfidenceMask/resized(width:height:)``).
///
/// ```swift
/// let model = try LocalModel(path: "Models/selfie_segmentation.tflite")
/// let segmenter = try SelfieSegmenter(options: SelfieSegmenterOptions(localModel: model))
/// let mask = try segmenter.results(in: VisionImage(path: "Models/images/astronaut.png"))
/// let person = mask.binaryMask(threshold: 0.5)
/// print(mask.width, mask.height, person.fraction)
/// ```
public final class SelfieSegmenter: Sendable, BatchImageTask {
    /// The options the segmenter was made with.
    public let options: SelfieSegmenterOptions
    /// How images become the model input (``MediaPipeFit/stretch``).
    public let preprocessor: ImagePreprocessor
    /// The model's mask size.
    public let maskWidth: Int, maskHeight: Int
    private let runner: TaskRunner

    /// Prepares the model; throws unless it has one float32 image input `[1, H, W, 3]` and
    /// one float32 output `[1, H', W', 1]`.
    public init(options: SelfieSegmenterOptions) throws(TaskError) {
        self.options = options
        let local = options.localModel
        runner = try TaskRunner(model: local.model, threadCount: options.threadCount)
        let (inputs, outputs) = try runner.tensors()
        guard outputs.count == 1, outputs[0].dataType == .float32, outputs[0].shape.count == 4,
              outputs[0].shape[0] == 1, outputs[0].shape[1] > 0, outputs[0].shape[2] > 0, outputs[0].shape[3] == 1 else {
            let described = outputs.map { "'\($0.name)' \($0.shape) \($0.dataType)" }.joined(separator: ", ")
            throw .unsupportedModel("\(local.modelPath) is not a selfie segmenter: it needs one float32 output, a confidence mask [1, height, width, 1]; the model's outputs are \(described)")
        }
        guard inputs.count == 1, inputs[0].dataType == .float32 else {
            let given = inputs.map { "'\($0.name)' \($0.shape) \($0.dataType)" }.joined(separator: ", ")
            throw .unsupportedModel("\(local.modelPath) is not a selfie segmenter: it needs one float32 image input, the model has \(given)")
        }
        // Without metadata the preprocessor scales pixels to [0, 1], MediaPipe's range for this model.
        var pre = try ImagePreprocessor(tensor: inputs[0], normalization: local.metadata?.inputs.first?.normalization)
        pre.mediaPipeFit = .stretch
        preprocessor = pre
        maskHeight = outputs[0].shape[1]
        maskWidth = outputs[0].shape[2]
    }

    /// The person confidence of every pixel of the displayed `image`, at its size.
    public func results(in image: VisionImage) throws(TaskError) -> ConfidenceMask {
        try modelMask(for: image).resized(width: image.displayedSize.width, height: image.displayedSize.height)
    }

    /// The model's own mask for `image`, at the model's output size (``maskWidth`` x
    /// ``maskHeight``), before it is resized to the image.
    public func modelMask(for image: VisionImage) throws(TaskError) -> ConfidenceMask {
        let bytes = try preprocessor.tensorBytes(for: image)
        let values = try runner.withInterpreter { interpreter in
            try interpreter.copy(bytes, toInputAt: 0)
            try interpreter.invoke()
            return try interpreter.output(at: 0).values(as: Float.self)
        }
        return try ConfidenceMask(width: maskWidth, height: maskHeight, values: values)
    }

    /// The async form of ``results(in:)``.
    public func process(_ image: VisionImage) async throws -> ConfidenceMask {
        try results(in: image)
    }
}
