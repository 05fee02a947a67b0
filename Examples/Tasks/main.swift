// The task APIs of docs/tasks.md (and the README's first snippet) as one program: label a
// photo, label a batch, detect objects with an AutoML detection bundle, run a classifier
// through ModelInterpreter with declared formats. Run it from the repository's root:
//
//     swift run -c release TasksExample
import Foundation
import Imaging
import TFLiteTasks

let model = try LocalModel(path: "Models/efficientnet_lite0.tflite")
let labeler = try ImageLabeler(options: CustomImageLabelerOptions(localModel: model))
for label in try labeler.results(in: VisionImage(path: "Models/images/chelsea.png")) {
    print(label.index, label.text, label.confidence)
}

print("== label a batch (a missing file fails alone)")
let files = ["chelsea.png", "coffee.png", "missing.png"].map { URL(fileURLWithPath: "Models/images/" + $0) }
for await item in try labeler.results(forImagesAt: files, workers: 2) {
    switch item.result {
    case .success(let labels): print(item.file.lastPathComponent, item.imageSize!, labels.first?.text ?? "-")
    case .failure(let error): print(item.file.lastPathComponent, "failed:", error)
    }
}

// The bundled test detector has random weights: its objects show the API, not a real scene.
print("== detect objects")
let detectorModel = try LocalModel(detectionBundle: "Tests/Fixtures/corpus/bundles/automl_detector")
let detector = try ObjectDetector(options: CustomObjectDetectorOptions(localModel: detectorModel))
for object in try detector.results(in: VisionImage(path: "Models/images/astronaut.png")) {
    print(object.text, object.confidence, object.frame)   // frame in image pixels
}

print("== run any model")
var formats = ModelInputOutputOptions()
try formats.setInputFormat(index: 0, type: .uInt8, dimensions: [1, 224, 224, 3])
try formats.setOutputFormat(index: 0, type: .uInt8, dimensions: [1, 1000])
let interpreter = try ModelInterpreter(localModel: model, options: formats)
let photo = try VisionImage(path: "Models/images/chelsea.png")
let pixels = try photo.image.applying(photo.orientation).converted(to: .rgb)
    .resized(width: 224, height: 224, method: .pillowBilinear).uint8Tensor()
var inputs = ModelInputs()
inputs.addInput(pixels)                       // [UInt8], [Float], ..., or bytes:, or nested arrays
let outputs = try interpreter.run(inputs: inputs)
let scores = (try outputs.output(index: 0) as! [[UInt8]])[0]
print("best class:", scores.indices.max { scores[$0] < scores[$1] }!)
