import Foundation
import TFLiteRuntime

/// Labels images with a classification model (ML Kit's `ImageLabeler`).
///
/// ```swift
/// let model = try LocalModel(path: "Models/efficientnet_lite0.tflite")
/// let labeler = try ImageLabeler(options: CustomImageLabelerOptions(localModel: model))
/// let labels = try labeler.results(in: VisionImage(path: "cat.png"))
/// for label in labels { print(label.index, label.text, label.confidence) }
/// ```
public final class ImageLabeler: Sendable, BatchImageTask {
    /// The options the labeller was made with.
    public let options: CustomImageLabelerOptions
    /// How images become the model input.
    public let preprocessor: ImagePreprocessor
    private let runner: TaskRunner
    private let classCount: Int
    private let confidence: ConfidenceFilter
    /// The output comes straight from a SOFTMAX or LOGISTIC op.
    private let outputIsProbability: Bool

    /// Prepares the model; throws when it is not a one-image-in, one-score-vector-out
    /// classifier or when its labels do not match its output.
    public init(options: CustomImageLabelerOptions) throws(TaskError) {
        self.options = options
        let local = options.localModel
        // Labels are checked against the declared output shape before the model is prepared.
        if let classes = local.model.outputTensor(at: 0)?.shape.last, !local.labels.isEmpty, local.labels.count != Int(classes) {
            throw .labelMismatch("\(local.labels.count) labels for a model output of \(classes) classes (\(local.modelPath))")
        }
        runner = try TaskRunner(model: local.model, threadCount: options.threadCount)
        let interpreter = runner.interpreter
        guard interpreter.inputTensorCount == 1, interpreter.outputTensorCount >= 1 else {
            throw .unsupportedModel("\(local.modelPath): a labeller needs one input and a score output, the model has \(interpreter.inputTensorCount) inputs and \(interpreter.outputTensorCount) outputs")
        }
        let input: Tensor, output: Tensor
        do { input = try interpreter.input(at: 0); output = try interpreter.output(at: 0) } catch {
            throw .runtime("\(error)")
        }
        var pre = try ImagePreprocessor(tensor: input, normalization: local.metadata?.inputs.first?.normalization)
        pre.cropsToSquare = options.cropsToSquare
        preprocessor = pre
        let classes = output.shape.last ?? 0
        guard output.elementCount == classes, classes > 0 else {
            throw .unsupportedModel("\(local.modelPath): output '\(output.name)' has shape \(output.shape); expected [1, classes]")
        }
        classCount = classes
        if !local.labels.isEmpty && local.labels.count != classes {
            throw .labelMismatch("\(local.labels.count) labels for a model output of \(classes) classes (\(local.modelPath))")
        }
        guard options.maxResultCount >= 0 else { throw .invalidFormat("maxResultCount must not be negative, is \(options.maxResultCount)") }
        outputIsProbability = Self.producedByProbabilityOp(local.model)
        confidence = ConfidenceFilter(threshold: options.confidenceThreshold, metadataThreshold: local.metadata?.outputs.first?.scoreThreshold)
    }

    /// The labels for `image`, best first, at most `maxResultCount`, each kept by the
    /// confidence threshold (see ``CustomImageLabelerOptions/confidenceThreshold``).
    public func results(in image: VisionImage) throws(TaskError) -> [ImageLabel] {
        let bytes = try preprocessor.tensorBytes(for: image)
        let scores: [Float] = try runner.withInterpreter { interpreter in
            try interpreter.copy(bytes, toInputAt: 0)
            try interpreter.invoke()
            let out = try interpreter.output(at: 0)
            guard let values = out.dequantized() else { throw TaskError.unsupportedModel("output type \(out.dataType) is not numeric") }
            return values
        }
        let probabilities = outputIsProbability || Self.isProbability(scores) ? scores : Self.softmax(scores)
        let labels = options.localModel.labels
        let ranked = probabilities.indices
            .filter { confidence.keeps(probabilities[$0]) }
            .sorted { probabilities[$0] > probabilities[$1] || (probabilities[$0] == probabilities[$1] && $0 < $1) }
            .prefix(options.maxResultCount)
        return ranked.map { ImageLabel(text: labels.isEmpty ? "" : labels[$0], confidence: probabilities[$0], index: $0) }
    }

    /// The async form of ``results(in:)``.
    public func process(_ image: VisionImage) async throws -> [ImageLabel] {
        try results(in: image)
    }

    /// Scores that are all in [0, 1] are taken as probabilities (logits almost never are).
    static func isProbability(_ v: [Float]) -> Bool {
        v.allSatisfy { $0 >= 0 && $0 <= 1 }
    }

    /// Whether the first output is written by a SOFTMAX or LOGISTIC op, looking through the
    /// QUANTIZE, DEQUANTIZE and RESHAPE ops converters put after it.
    static func producedByProbabilityOp(_ model: Model) -> Bool {
        let graph = model.mainSubgraph
        guard var tensor = graph.outputs.first else { return false }
        for _ in 0..<8 {
            guard let op = graph.operators.last(where: { $0.outputs.contains(tensor) }) else { return false }
            let kind = model.operatorKind(ofCode: Int(op.opcodeIndex))
            if kind == .builtin(.softmax) || kind == .builtin(.logistic) { return true }
            guard [.builtin(.quantize), .builtin(.dequantize), .builtin(.reshape)].contains(kind),
                  let input = op.inputs.first else { return false }
            tensor = input
        }
        return false
    }

    static func softmax(_ v: [Float]) -> [Float] {
        guard let m = v.max() else { return v }
        let e = v.map { Foundation.exp($0 - m) }
        let s = e.reduce(0, +)
        return e.map { $0 / s }
    }
}
