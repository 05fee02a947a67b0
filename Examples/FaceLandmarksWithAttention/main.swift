// Runs MediaPipe's face_landmark_with_attention.tflite, which needs three custom operators that
// LiteRT does not have, with the Swift kernels of Examples/MediaPipeOps added through the
// custom-operator API, and refines the face mesh with its lips, eyes and irises into MediaPipe's
// 478 landmarks (as mediapipe/modules/face_landmark/tensors_to_face_landmarks_with_attention.pbtxt
// does).
//
//     swift run FaceLandmarksWithAttentionExample [FACE_IMAGE] [--annotate OUT.png] [--profile-nodes] [--runs N]
//
// FACE_IMAGE is a face crop (default: the astronaut's, Tests/Fixtures/mediapipe); another size
// than 192x192 is centre-cropped to a square and resized. Coordinates are pixels of that input.
// --profile-nodes times the custom nodes; --runs N invokes N times and prints the median time.
import Foundation
import Imaging
import MediaPipeOps
import TFLiteRuntime

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let fixtures = root.appendingPathComponent("Tests/Fixtures/mediapipe")
var arguments = Array(CommandLine.arguments.dropFirst())
/// Removes `name VALUE` from `arguments` and returns the value.
func option(_ name: String, in arguments: inout [String]) -> String? {
    guard let k = arguments.firstIndex(of: name), k + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(k...k + 1) }
    return arguments[k + 1]
}
let annotatePath = option("--annotate", in: &arguments)
let runs = option("--runs", in: &arguments).map { Int($0) ?? 0 } ?? 1
let profileNodes = arguments.contains("--profile-nodes")
arguments.removeAll { $0 == "--profile-nodes" }
let imagePath = arguments.first ?? fixtures.appendingPathComponent("astronaut_face_192.png").path
let modelPath = fixtures.appendingPathComponent("face_landmark_with_attention.tflite").path

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}
guard runs >= 1 else { fail("--runs takes a positive count") }

do {
    // The three MediaPipe kernels, added to this interpreter's options only.
    var options = Interpreter.Options(threadCount: 1)
    try options.addMediaPipeOperators()
    let interpreter = try Interpreter(modelPath: modelPath, options: options)
    try interpreter.allocateTensors()

    // MediaPipe's face landmark input: 192x192 RGB, values in [0, 1].
    guard let bytes = FileManager.default.contents(atPath: imagePath) else { fail("cannot read \(imagePath)") }
    var image = try ImageDecoder.decode(bytes: [UInt8](bytes)).image.converted(to: .rgb)
    if image.width != 192 || image.height != 192 {
        image = try image.centerSquareCropped().resized(width: 192, height: 192, method: .pillowBilinear)
    }
    try interpreter.copy(image.floatTensor(.unitRange), toInputAt: 0)
    var timings: [NodeTiming] = []
    var times: [Double] = []
    times.reserveCapacity(runs)
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        if profileNodes {
            timings = try interpreter.invokeProfiled()
        } else {
            try interpreter.invoke()
        }
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }

    func points(_ output: Int, dimensions: Int) throws -> [(x: Float, y: Float, z: Float)] {
        let v = try interpreter.output(at: output).values(as: Float.self)
        return stride(from: 0, to: v.count, by: dimensions).map { (v[$0], v[$0 + 1], dimensions == 3 ? v[$0 + 2] : 0) }
    }
    // Outputs: mesh (468 x 3), lips (80 x 2), left and right eye (71 x 2), left and right iris
    // (5 x 2), face flag (a logit).
    let mesh = try points(0, dimensions: 3)
    let regions = try (1...3).map { try points($0, dimensions: 2) }
    let irises = try (4...5).map { try points($0, dimensions: 2) }
    let faceFlag = try interpreter.output(at: 6).values(as: Float.self)[0]

    // Each refined region is predicted for the landmarks whose box the region's
    // Landmarks2TransformMatrix node crops (its subset_idxs, which are MediaPipe's
    // indexes_mapping for that region); the model's three such nodes come in output order.
    let subsets = try interpreter.model.mainSubgraph.operators.compactMap { op -> [Int]? in
        guard interpreter.model.operatorKind(ofCode: Int(op.opcodeIndex)).name == "Landmarks2TransformMatrix",
              let range = op.customOptions else { return nil }
        return try LandmarksToTransformMatrix(customOptions: Array(interpreter.model.bytes(range))).subsetIndices
    }
    guard subsets.map(\.count) == regions.map(\.count) else { fail("unexpected model: subsets \(subsets.map(\.count))") }
    var refined = mesh
    var distances: [Float] = []
    for (subset, region) in zip(subsets, regions) {
        var sum: Float = 0
        for (index, p) in zip(subset, region) {
            sum += ((p.x - mesh[index].x) * (p.x - mesh[index].x) + (p.y - mesh[index].y) * (p.y - mesh[index].y)).squareRoot()
            refined[index].x = p.x
            refined[index].y = p.y
        }
        distances.append(sum / Float(region.count))
    }
    // Iris z: the mean z of the eye's first 16 (contour) landmarks.
    for (eye, iris) in zip(subsets[1...2], irises) {
        let z = eye.prefix(16).reduce(Float(0)) { $0 + mesh[$1].z } / 16
        refined += iris.map { ($0.x, $0.y, z) }
    }

    print("model: \(modelPath)")
    print("image: \(imagePath)")
    print(String(format: "face presence: %.4f", 1 / (1 + exp(-Double(faceFlag)))))
    print("landmarks: \(refined.count) (468 mesh with 80 lip and 2 x 71 eye points refined, 2 x 5 iris points)")
    for (name, iris) in zip(["left", "right"], irises) {
        print(String(format: "\(name) iris centre: (%.2f, %.2f)", iris[0].x, iris[0].y))
    }
    print(String(format: "refined vs mesh, mean distance in pixels: lips %.2f, left eye %.2f, right eye %.2f",
                 distances[0], distances[1], distances[2]))
    if runs > 1 {
        print(String(format: "median of %d invocations: %.3f ms", runs, times.sorted()[runs / 2]))
    }
    if profileNodes {
        print("node  op                          output shape      ms     kernel")
        for t in timings where !SupportedOperators.contains(interpreter.model.operatorKind(ofCode:
            Int(interpreter.model.mainSubgraph.operators[t.node].opcodeIndex))) {
            print(String(format: "%4d  ", t.node) + t.op.padding(toLength: 28, withPad: " ", startingAt: 0)
                  + "\(t.outputShape)".padding(toLength: 18, withPad: " ", startingAt: 0)
                  + String(format: "%6.3f ", Double(t.nanoseconds) / 1e6) + (t.kernel ?? "-"))
        }
        print(String(format: "all %d nodes: %.3f ms", timings.count, Double(timings.reduce(0) { $0 + $1.nanoseconds }) / 1e6))
    }
    if let annotatePath {
        for (k, p) in refined.enumerated() {
            let color: Imaging.Color = k >= 468 ? .red : .green
            image.fillRectangle(x: Int(p.x.rounded()) - 1, y: Int(p.y.rounded()) - 1, width: 2, height: 2, color: color)
        }
        try Data(PNGEncoder.encode(image)).write(to: URL(fileURLWithPath: annotatePath))
        print("annotated: \(annotatePath)")
    }
} catch {
    fail("\(error)")
}
