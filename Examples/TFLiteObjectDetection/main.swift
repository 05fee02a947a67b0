// Object detection with an AutoML Vision Edge export run by the TensorFlow Lite interpreter
// (the Firebase guide "Detect objects in images with an AutoML-trained model", which uses
// TensorFlowLiteSwift), on this package: `import TensorFlowLite`, the bundle's
// tflite_metadata.json for the input size and the most detections, the outputs copied into
// Float32 buffers, detections kept from score 0.5.
//
// The bundle is the corpus's SSD detector (5 shapes: circle, square, ...) with random
// weights: its detections are LiteRT's for this photo, not meaningful objects.
//
//     swift run TFLiteObjectDetectionExample [IMAGE]
import Foundation
import Imaging
import TensorFlowLite

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(1)
}

/// The two values the guide takes from tflite_metadata.json.
struct AutoMLDetectionMetadata: Decodable {
    let inputShape: [Int]
    let maxDetections: Int
}

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let bundle = root.appendingPathComponent("Tests/Fixtures/corpus/bundles/automl_detector")
let imagePath = CommandLine.arguments.dropFirst().first ?? root.appendingPathComponent("Models/images/astronaut.png").path

do {
    let metadata = try JSONDecoder().decode(AutoMLDetectionMetadata.self,
                                            from: Data(contentsOf: bundle.appendingPathComponent("tflite_metadata.json")))
    let labels = try String(contentsOf: bundle.appendingPathComponent("dict.txt"), encoding: .utf8)
        .split(whereSeparator: \.isNewline).map(String.init)
    let (height, width) = (metadata.inputShape[1], metadata.inputShape[2])
    let maxDetections = metadata.maxDetections

    // 1. Load the model.
    let interpreter = try Interpreter(modelPath: bundle.appendingPathComponent("model.tflite").path)
    try interpreter.allocateTensors()

    // 2. The input: the photo upright, scaled to the model's input size, RGB bytes. This
    //    detector learnt from pixels in [-1, 1]; its int8 export takes them quantised with its
    //    input's parameters (its float export, like AutoML's, takes the raw bytes).
    guard let bytes = FileManager.default.contents(atPath: imagePath) else { fail("cannot read \(imagePath)") }
    let photo = try ImageDecoder.decode(bytes: [UInt8](bytes)).orientedImage.converted(to: .rgb)
    let scaled = try photo.resized(width: width, height: height, method: .pillowBilinear)
    let inputData: Data
    if let quantization = try interpreter.input(at: 0).quantizationParameters {
        inputData = Data(try scaled.quantizedUInt8Tensor(scale: quantization.scale, zeroPoint: quantization.zeroPoint,
                                                         normalization: .signedUnitRange))
    } else {
        inputData = Data(scaled.uint8Tensor())
    }

    // 3. Run the interpreter.
    try interpreter.copy(inputData, toInputAt: 0)
    try interpreter.invoke()

    // 4. The outputs. An AutoML export orders them boxes, classes, scores, count; this
    //    detector's converter ordered them scores, boxes, count, classes (`tflite inspect`
    //    shows a model's order). Each is checked against the shape it must have.
    func copy(_ index: Int, _ shape: Tensor.Shape) throws -> UnsafeMutableBufferPointer<Float32> {
        let output = try interpreter.output(at: index)
        guard output.dataType == .float32, output.shape == shape else {
            fail("output \(index) is \(output.dataType) \(output.shape.dimensions), not float32 \(shape.dimensions)")
        }
        let buffer = UnsafeMutableBufferPointer<Float32>.allocate(capacity: shape.dimensions.reduce(1, *))
        _ = output.data.copyBytes(to: buffer)
        return buffer
    }
    let outputScores = try copy(0, [1, maxDetections])
    let boundingBoxes = try copy(1, [1, maxDetections, 4])
    let numDetections = try copy(2, [1])
    let outputClasses = try copy(3, [1, maxDetections])
    defer { [outputScores, boundingBoxes, numDetections, outputClasses].forEach { $0.deallocate() } }

    // 5. The detections: boxes are top, left, bottom, right, relative to the image's size;
    //    printed as left, top, right, bottom in the photo's pixels.
    let count = min(Int(numDetections[0]), maxDetections)
    print("detections: \(count)")
    for i in 0..<count where outputScores[i] >= 0.5 {
        let label = labels[Int(outputClasses[i])]
        let (top, left) = (boundingBoxes[4 * i] * Float(photo.height), boundingBoxes[4 * i + 1] * Float(photo.width))
        let (bottom, right) = (boundingBoxes[4 * i + 2] * Float(photo.height), boundingBoxes[4 * i + 3] * Float(photo.width))
        print(label.padding(toLength: 9, withPad: " ", startingAt: 0)
              + String(format: "%.3f  [%.0f, %.0f, %.0f, %.0f]", outputScores[i], left, top, right, bottom))
    }
} catch {
    fail("detection failed: \(error)")
}
