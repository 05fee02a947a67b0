import Foundation

/// The `tflite_metadata.json` of an AutoML Vision Edge object detection export.
public struct AutoMLDetectionMetadata: Sendable, Equatable {
    /// The file's name inside a bundle.
    public static let fileName = "tflite_metadata.json"
    /// `QUANTIZED_UINT8` or `FLOAT32`.
    public var inferenceType: String
    /// The model input's shape, e.g. `[1, 320, 320, 3]`.
    public var inputShape: [Int]
    /// The input tensor's name.
    public var inputTensor: String
    /// The detector's maximum detections.
    public var maxDetections: Int
    /// What each output holds, e.g. `bounding_boxes`, `class_labels`, `class_confidences`,
    /// `num_of_boxes`, parallel to ``outputTensors``.
    public var outputTensorRepresentation: [String]
    /// The output tensors' names, e.g. `TFLite_Detection_PostProcess:1`.
    public var outputTensors: [String]

    static let requiredKeys = ["inferenceType", "inputShape", "inputTensor", "maxDetections",
                               "outputTensorRepresentation", "outputTensors"]

    static func load(_ path: String) throws(TaskError) -> AutoMLDetectionMetadata {
        guard let data = FileManager.default.contents(atPath: path) else { throw .fileNotFound(path) }
        let o = try JSONLoose.object(data, path: path)
        let missing = requiredKeys.filter { o[$0] == nil }
        guard missing.isEmpty else { throw .invalidBundle("\(path): missing key(s) \(missing.joined(separator: ", "))") }
        guard let inferenceType = o["inferenceType"] as? String, let inputTensor = o["inputTensor"] as? String,
              let shape = o["inputShape"] as? [Int], let maxDetections = o["maxDetections"] as? Int,
              let representation = o["outputTensorRepresentation"] as? [String], let outputs = o["outputTensors"] as? [String] else {
            throw .invalidBundle("\(path): a key has the wrong type (expected strings, integer lists and string lists)")
        }
        guard representation.count == outputs.count else {
            throw .invalidBundle("\(path): outputTensorRepresentation has \(representation.count) entries, outputTensors \(outputs.count)")
        }
        let known: Set = ["bounding_boxes", "class_labels", "class_confidences", "num_of_boxes"]
        guard Set(representation) == known else {
            throw .invalidBundle("\(path): outputTensorRepresentation must list \(known.sorted().joined(separator: ", ")), lists \(representation.joined(separator: ", "))")
        }
        return AutoMLDetectionMetadata(inferenceType: inferenceType, inputShape: shape, inputTensor: inputTensor,
                                       maxDetections: maxDetections, outputTensorRepresentation: representation,
                                       outputTensors: outputs)
    }
}
