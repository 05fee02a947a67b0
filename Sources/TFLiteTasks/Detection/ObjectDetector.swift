import Foundation
import TFLiteRuntime

/// Detects objects with an SSD-style model ending in `TFLite_Detection_PostProcess`.
///
/// The four results (boxes, classes, scores, count) are found through the post-processing
/// op's own output order, not the subgraph's output order, which converters permute.
public final class ObjectDetector: Sendable, BatchImageTask {
    /// The options the detector was made with.
    public let options: CustomObjectDetectorOptions
    /// How images become the model input (the whole image scaled to the input size).
    public let preprocessor: ImagePreprocessor
    private let runner: TaskRunner
    /// Subgraph output positions of boxes, classes, scores, count.
    private let outputPositions: [Int]
    private let confidence: ConfidenceFilter

    /// Prepares the model; throws when it has no post-processing op whose outputs are model
    /// outputs, or when its labels do not match its class count.
    public init(options: CustomObjectDetectorOptions) throws(TaskError) {
        self.options = options
        let local = options.localModel
        let model = local.model
        let graph = model.mainSubgraph
        guard let op = graph.operators.first(where: { model.operatorKind(ofCode: Int($0.opcodeIndex)) == .custom("TFLite_Detection_PostProcess") }),
              op.outputs.count == 4 else {
            throw .unsupportedModel("\(local.modelPath): no TFLite_Detection_PostProcess op with four outputs")
        }
        var positions: [Int] = []
        for t in op.outputs {
            guard let p = graph.outputs.firstIndex(of: t) else {
                throw .unsupportedModel("\(local.modelPath): post-processing output tensor \(t) is not a model output")
            }
            positions.append(p)
        }
        if case .autoMLObjectDetection(let info) = local.kind {
            // The bundle's description must fit the model (its tensor names are those of the
            // exporting graph, so the shape and detection count are what can be checked).
            let input = model.inputTensor(at: 0)?.shape.map(Int.init)
            guard input == info.inputShape else {
                throw .invalidBundle("\(AutoMLDetectionMetadata.fileName): inputShape \(info.inputShape) but the model's input is \(input ?? [])")
            }
            if let max = op.customOptions.flatMap({ DetectionOptions.int("max_detections", model.bytes($0)) }), max != info.maxDetections {
                throw .invalidBundle("\(AutoMLDetectionMetadata.fileName): maxDetections \(info.maxDetections) but the model's post-processing keeps \(max)")
            }
        }
        if !local.labels.isEmpty, let classes = Self.numClasses(model: model, op: op), classes != local.labels.count {
            throw .labelMismatch("\(local.labels.count) labels for a detector with \(classes) classes (\(local.modelPath))")
        }
        outputPositions = positions
        runner = try TaskRunner(model: model, threadCount: options.threadCount)
        let input: Tensor
        do { input = try runner.interpreter.input(at: 0) } catch { throw .runtime("\(error)") }
        preprocessor = try ImagePreprocessor(tensor: input, normalization: local.metadata?.inputs.first?.normalization)
        confidence = ConfidenceFilter(threshold: options.confidenceThreshold,
                                      metadataThreshold: local.metadata?.outputs.compactMap(\.scoreThreshold).first)
    }

    /// The op's `num_classes` option, when readable.
    private static func numClasses(model: Model, op: Schema.Operator) -> Int? {
        guard let range = op.customOptions else { return nil }
        let bytes = model.bytes(range)
        return DetectionOptions.int("num_classes", bytes)
    }

    /// The detections in `image`, best first.
    public func results(in image: VisionImage) throws(TaskError) -> [DetectedObject] {
        let bytes = try preprocessor.tensorBytes(for: image)
        let oriented = image.image.applying(image.orientation)
        let (boxes, classes, scores, count) = try runner.withInterpreter { interpreter in
            try interpreter.copy(bytes, toInputAt: 0)
            try interpreter.invoke()
            let t = try outputPositions.map { try interpreter.output(at: $0).values(as: Float.self) }
            return (t[0], t[1], t[2], t[3].first ?? 0)
        }
        let n = max(0, min(Int(count), scores.count, classes.count, boxes.count / 4))
        let w = Float(oriented.width), h = Float(oriented.height)
        let labels = options.localModel.labels
        var out: [DetectedObject] = []
        for i in 0..<n where confidence.keeps(scores[i]) {
            let cls = Int(classes[i])
            let b = boxes[(4 * i)..<(4 * i + 4)].map { min(max($0, 0), 1) }
            out.append(DetectedObject(frame: PixelRect(left: b[1] * w, top: b[0] * h, right: b[3] * w, bottom: b[2] * h),
                                      text: cls >= 0 && cls < labels.count ? labels[cls] : "", index: cls,
                                      confidence: scores[i]))
        }
        if let limit = options.maxResultCount { out = Array(out.prefix(max(0, limit))) }
        return out
    }

    /// The async form of ``results(in:)``.
    public func process(_ image: VisionImage) async throws -> [DetectedObject] {
        try results(in: image)
    }
}
