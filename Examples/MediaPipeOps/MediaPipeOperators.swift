import TFLiteRuntime

/// MediaPipe's custom TFLite operators that `face_landmark_with_attention.tflite` uses, written
/// against this package's custom-operator API (``CustomOperator``): an example of the API, kept
/// out of the runtime's own operator table.
///
/// ```swift
/// var options = Interpreter.Options()
/// try options.addMediaPipeOperators()
/// let interpreter = try Interpreter(modelPath: "face_landmark_with_attention.tflite", options: options)
/// ```
///
/// Each is version 2 of the operator, the one MediaPipe's CPU op resolver registers
/// (`mediapipe/util/tflite/cpu_op_resolver.cc`), with the semantics of its CPU kernel in
/// `mediapipe/util/tflite/operations/`. Unlike those kernels, every landmark index in the options
/// is checked against the input at allocation.
public enum MediaPipeOperators {
    /// `Landmarks2TransformMatrix`, `TransformLandmarks` and `TransformTensorBilinear`.
    public static let all: [CustomOperator] = [
        LandmarksToTransformMatrix.customOperator,
        TransformLandmarks.customOperator,
        TransformTensorBilinear.customOperator,
    ]
}

extension Interpreter.Options {
    /// Adds MediaPipe's custom operators (``MediaPipeOperators/all``).
    public mutating func addMediaPipeOperators() throws(CustomOperatorError) {
        try addCustomOperators(MediaPipeOperators.all)
    }
}
