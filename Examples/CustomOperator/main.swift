// The code of docs/custom-ops.md as a complete program: two of the custom operators that
// MediaPipe's face_landmark_with_attention.tflite needs, written from scratch with the
// custom-operator API, run with the third one from Examples/MediaPipeOps. The program then
// runs the model again with all three library kernels and prints how far apart the two
// runs' landmarks are.
//
//     swift run CustomOperatorExample
import FlatBuffers
import Foundation
import Imaging
import MediaPipeOps
import TFLiteRuntime

// MARK: An operator without options

/// MediaPipe's `TransformLandmarks`: maps landmarks (x, y[, z]) through the 2-D affine part of a
/// 4x4 matrix. Inputs: landmarks [1, N, 2 or 3] and the matrix [1, 4, 4]; output: like the
/// landmarks.
let transformLandmarks = CustomOperator(name: "TransformLandmarks", versions: 2...2) { node in
    // Prepare: check what the kernel will read, then declare every output.
    try node.expect(inputs: 2, outputs: 1)
    let landmarks = try node.input(0), matrix = try node.input(1)
    guard landmarks.type == .float32, matrix.type == .float32 else {
        throw CustomOperatorError("expects float32 inputs, got \(landmarks.type) and \(matrix.type)")
    }
    guard landmarks.shape.count == 3, landmarks.shape[0] == 1, [2, 3].contains(landmarks.shape[2]) else {
        throw CustomOperatorError("landmarks must have shape [1, N, 2] or [1, N, 3], not \(landmarks.shape)")
    }
    guard matrix.elementCount == 16 else {
        throw CustomOperatorError("the matrix must have 16 elements, not \(matrix.elementCount)")
    }
    try node.setOutput(0, shape: landmarks.shape)
    let count = landmarks.shape[1], dimensions = landmarks.shape[2]

    // The kernel: runs at every invoke() on views of the node's tensors.
    return { io in
        let points = io.input(0, as: Float.self), m = io.input(1, as: Float.self)
        let out = io.output(0, as: Float.self)
        for k in 0..<count {
            let i = k * dimensions
            let x = points[i], y = points[i + 1]
            out[i] = m[0] * x + m[1] * y + m[3]
            out[i + 1] = m[4] * x + m[5] * y + m[7]
            if dimensions == 3 { out[i + 2] = points[i + 2] }
        }
    }
}

// MARK: An operator with options

/// MediaPipe's `TransformTensorBilinear`: an affine crop of a feature map [1, H, W, C], of the
/// size its custom options give (`output_height`, `output_width`), sampled bilinearly at the
/// points the matrix maps the crop's pixel centres to; points outside the map give 0.
let transformTensorBilinear = CustomOperator(name: "TransformTensorBilinear", versions: 2...2) { node in
    try node.expect(inputs: 2, outputs: 1)
    let features = try node.input(0)
    guard features.type == .float32, features.shape.count == 4, features.shape[0] == 1 else {
        throw CustomOperatorError("the feature map must be float32 [1, H, W, C], not \(features.type) \(features.shape)")
    }
    guard try node.input(1).elementCount == 16 else { throw CustomOperatorError("the matrix must have 16 elements") }
    // The options are a FlexBuffer map; a missing key means 0, as in MediaPipe.
    let options = try FlexBuffer.root(of: node.customOptions).map
    let outputHeight = Int(try options["output_height"]?.asInt ?? 0)
    let outputWidth = Int(try options["output_width"]?.asInt ?? 0)
    guard (1...4096).contains(outputHeight), (1...4096).contains(outputWidth) else {
        throw CustomOperatorError("output size \(outputWidth)x\(outputHeight) is not within 1...4096")
    }
    let (height, width, channels) = (features.shape[1], features.shape[2], features.shape[3])
    try node.setOutput(0, shape: [1, outputHeight, outputWidth, channels])

    return { io in
        let input = io.input(0, as: Float.self), m = io.input(1, as: Float.self)
        let out = io.output(0, as: Float.self)
        // The matrix maps pixel corners: half a pixel on both sides makes it map centres.
        let tx0 = m[3] + (m[0] + m[1] - 1) / 2, ty0 = m[7] + (m[4] + m[5] - 1) / 2
        func pixel(_ h: Int, _ w: Int, _ c: Int) -> Float {
            h < 0 || w < 0 || h >= height || w >= width ? 0 : input[(h * width + w) * channels + c]
        }
        for v in 0..<outputHeight {
            for u in 0..<outputWidth {
                let x = m[0] * Float(u) + m[1] * Float(v) + tx0
                let y = m[4] * Float(u) + m[5] * Float(v) + ty0
                let o = (v * outputWidth + u) * channels
                guard x >= 0, x <= Float(width - 1), y >= 0, y <= Float(height - 1) else {
                    for c in 0..<channels { out[o + c] = 0 }
                    continue
                }
                let x0 = x.rounded(.down), y0 = y.rounded(.down)
                let w = Int(x0), h = Int(y0), fx = x - x0, fy = y - y0
                for c in 0..<channels {
                    let top = (1 - fx) * pixel(h, w, c) + fx * pixel(h, w + 1, c)
                    let bottom = (1 - fx) * pixel(h + 1, w, c) + fx * pixel(h + 1, w + 1, c)
                    out[o + c] = (1 - fy) * top + fy * bottom
                }
            }
        }
    }
}

// MARK: Running a model with them

/// The model and a face crop, in the package's Tests/Fixtures/mediapipe.
let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/mediapipe")

/// Runs face_landmark_with_attention.tflite on the astronaut's face crop with `operators`
/// and returns its outputs (mesh, lips, eyes, irises, face flag).
func landmarks(with operators: [CustomOperator]) throws -> [[Float]] {
    var options = Interpreter.Options(threadCount: 1)
    try options.addCustomOperators(operators)
    let model = fixtures.appendingPathComponent("face_landmark_with_attention.tflite").path
    let interpreter = try Interpreter(modelPath: model, options: options)
    try interpreter.allocateTensors()
    let png = try [UInt8](Data(contentsOf: fixtures.appendingPathComponent("astronaut_face_192.png")))
    try interpreter.copy(ImageDecoder.decode(bytes: png).image.floatTensor(.unitRange), toInputAt: 0)
    try interpreter.invoke()
    return try (0..<interpreter.outputTensorCount).map { try interpreter.output(at: $0).values(as: Float.self) }
}

// MARK: The README's smallest operator, added to an interpreter's options

let scale = CustomOperator(name: "Scale") { node in
    let x = try node.input(0)
    guard x.type == .float32 else { throw CustomOperatorError("Scale takes float32, not \(x.type)") }
    try node.setOutput(0, shape: x.shape)
    return { io in
        let input = io.input(0, as: Float.self), output = io.output(0, as: Float.self)
        for i in input.indices { output[i] = 2 * input[i] }
    }
}
var options = Interpreter.Options()
try options.addCustomOperator(scale)

do {
    let mine = try landmarks(with: [transformLandmarks, transformTensorBilinear, LandmarksToTransformMatrix.customOperator])
    let library = try landmarks(with: MediaPipeOperators.all)
    let lips = stride(from: 0, to: 8, by: 2).map { String(format: "(%.2f, %.2f)", mine[1][$0], mine[1][$0 + 1]) }
    print("lips, first points: \(lips.joined(separator: " "))")
    for (name, k) in [("mesh", 0), ("lips", 1), ("left eye", 2), ("right eye", 3), ("left iris", 4), ("right iris", 5)] {
        let difference = zip(mine[k], library[k]).map { abs($0 - $1) }.max() ?? 0
        print(String(format: "\(name): %d values, largest difference from Examples/MediaPipeOps: %.2g pixels", mine[k].count, difference))
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
