import Foundation
import TFLiteRuntime

/// Finds faces with MediaPipe's BlazeFace short-range model, as MediaPipe's face detector
/// does: the image letterboxed into the 128 x 128 input (``Letterbox``: aspect ratio kept, black padding,
/// values scaled to [-1, 1] or as the model's metadata says), the raw boxes decoded against
/// MediaPipe's SSD anchors (``SSDAnchorGenerator/faceShortRange(inputWidth:inputHeight:)``),
/// scores through a clipped sigmoid, weighted non-maximum suppression (IoU), and the
/// survivors mapped back through the letterbox into image pixels.
///
/// ```swift
/// let model = try LocalModel(path: "Models/face_detection_short_range.tflite")
/// let detector = try FaceDetector(options: FaceDetectorOptions(localModel: model))
/// for face in try detector.results(in: VisionImage(path: "Models/images/astronaut.png")) {
///     print(face.confidence, face.frame, face.keypoint(.noseTip) as Any)
/// }
/// ```
///
/// The letterbox is sampled as MediaPipe samples it (OpenCV's bilinear warp, no
/// antialiasing), so the model sees the pixels it sees under MediaPipe and the faces match
/// MediaPipe's to a fraction of a pixel.
public final class FaceDetector: Sendable, BatchImageTask {
    /// The options the detector was made with.
    public let options: FaceDetectorOptions
    /// How images become the model input (``MediaPipeFit/letterbox``).
    public let preprocessor: ImagePreprocessor
    /// The anchors the model's boxes are decoded against, one per box.
    public let anchors: [SSDAnchor]
    private let runner: TaskRunner
    private let boxesOutput: Int, scoresOutput: Int
    private let decoder: SSDBoxDecoder
    private let suppression: WeightedNonMaxSuppression

    /// The values per anchor a BlazeFace box output holds: the box, then six keypoints.
    static let valuesPerAnchor = 16

    /// Prepares the model; throws when it is not a BlazeFace short-range style detector (one
    /// float image input; a `[1, N, 16]` box output and a `[1, N, 1]` score output, N the
    /// number of anchors for the input size) or when an option is out of range.
    public init(options: FaceDetectorOptions) throws(TaskError) {
        self.options = options
        guard (0...1).contains(options.minDetectionConfidence) else {
            throw .invalidFormat("minDetectionConfidence must be within 0...1, is \(options.minDetectionConfidence)")
        }
        guard (0...1).contains(options.minSuppressionThreshold) else {
            throw .invalidFormat("minSuppressionThreshold must be within 0...1, is \(options.minSuppressionThreshold)")
        }
        if let limit = options.maxResultCount, limit < 0 {
            throw .invalidFormat("maxResultCount must not be negative, is \(limit)")
        }
        let local = options.localModel
        runner = try TaskRunner(model: local.model, threadCount: options.threadCount)
        let (inputs, outputs) = try runner.tensors()
        let described = outputs.map { "'\($0.name)' \($0.shape) \($0.dataType)" }.joined(separator: ", ")
        let boxes = outputs.firstIndex { $0.shape.count == 3 && $0.shape[0] == 1 && $0.shape[2] == Self.valuesPerAnchor && $0.dataType == .float32 }
        let scores = outputs.firstIndex { $0.shape.count == 3 && $0.shape[0] == 1 && $0.shape[2] == 1 && $0.dataType == .float32 }
        guard outputs.count == 2, let boxes, let scores, outputs[boxes].shape[1] == outputs[scores].shape[1] else {
            throw .unsupportedModel("\(local.modelPath) is not a BlazeFace face detector: it needs two float32 outputs, boxes [1, N, \(Self.valuesPerAnchor)] and scores [1, N, 1]; the model's outputs are \(described)")
        }
        guard inputs.count == 1, inputs[0].dataType == .float32 else {
            let given = inputs.map { "'\($0.name)' \($0.shape) \($0.dataType)" }.joined(separator: ", ")
            throw .unsupportedModel("\(local.modelPath) is not a BlazeFace face detector: it needs one float32 image input, the model has \(given)")
        }
        // MediaPipe's graph scales pixels to [-1, 1]; the model's metadata says the same.
        var pre = try ImagePreprocessor(tensor: inputs[0],
                                        normalization: local.metadata?.inputs.first?.normalization ?? Normalization(mean: [127.5], std: [127.5]))
        pre.mediaPipeFit = .letterbox
        preprocessor = pre
        anchors = try SSDAnchorGenerator.faceShortRange(inputWidth: pre.width, inputHeight: pre.height).anchors()
        guard anchors.count == outputs[boxes].shape[1] else {
            throw .unsupportedModel("\(local.modelPath): the model has \(outputs[boxes].shape[1]) boxes, but the short-range face anchors for its \(pre.width)x\(pre.height) input are \(anchors.count)")
        }
        boxesOutput = boxes
        scoresOutput = scores
        decoder = SSDBoxDecoder(valuesPerAnchor: Self.valuesPerAnchor, keypointCount: FaceKeypoint.Kind.allCases.count,
                                xScale: Float(pre.width), yScale: Float(pre.height),
                                widthScale: Float(pre.width), heightScale: Float(pre.height),
                                scoreClipping: 100, minScore: options.minDetectionConfidence)
        suppression = WeightedNonMaxSuppression(threshold: options.minSuppressionThreshold)
    }

    /// The faces in `image`, best first.
    public func results(in image: VisionImage) throws(TaskError) -> [DetectedFace] {
        let bytes = try preprocessor.tensorBytes(for: image)
        let (boxes, scores) = try runner.withInterpreter { interpreter in
            try interpreter.copy(bytes, toInputAt: 0)
            try interpreter.invoke()
            return (try interpreter.output(at: boxesOutput).values(as: Float.self),
                    try interpreter.output(at: scoresOutput).values(as: Float.self))
        }
        let size = image.displayedSize
        let letterbox = preprocessor.letterbox(forWidth: size.width, height: size.height)
        let detections = suppression.apply(decoder.decode(boxes: boxes, scores: scores, anchors: anchors))
        let faces = detections.map { face(from: $0, letterbox: letterbox) }
        guard let limit = options.maxResultCount else { return faces }
        return Array(faces.prefix(limit))
    }

    /// The async form of ``results(in:)``.
    public func process(_ image: VisionImage) async throws -> [DetectedFace] {
        try results(in: image)
    }

    /// `detection` (relative to the input) in image pixels, its box clipped to the image.
    private func face(from detection: RelativeDetection, letterbox: Letterbox) -> DetectedFace {
        let topLeft = letterbox.imagePoint(normalizedX: detection.xMin, normalizedY: detection.yMin)
        let bottomRight = letterbox.imagePoint(normalizedX: detection.xMax, normalizedY: detection.yMax)
        let w = Float(letterbox.imageWidth), h = Float(letterbox.imageHeight)
        let frame = PixelRect(left: min(max(topLeft.x, 0), w), top: min(max(topLeft.y, 0), h),
                              right: min(max(bottomRight.x, 0), w), bottom: min(max(bottomRight.y, 0), h))
        let keypoints = zip(FaceKeypoint.Kind.allCases, detection.keypoints).map { kind, p in
            let point = letterbox.imagePoint(normalizedX: p.x, normalizedY: p.y)
            return FaceKeypoint(kind: kind, x: point.x, y: point.y)
        }
        return DetectedFace(frame: frame, confidence: detection.score, keypoints: keypoints)
    }
}
