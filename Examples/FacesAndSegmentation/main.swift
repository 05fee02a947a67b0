// The face detector and the selfie segmenter of docs/faces-and-segmentation.md as a complete
// program, on the bundled MediaPipe models:
//
//     swift run FacesAndSegmentationExample [IMAGE]
import Foundation
import Imaging
import TFLiteTasks

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let imagePath = CommandLine.arguments.dropFirst().first ?? root.appendingPathComponent("Models/images/astronaut.png").path

do {
    let image = try VisionImage(path: imagePath)

    let faceModel = try LocalModel(path: root.appendingPathComponent("Models/face_detection_short_range.tflite").path)
    var options = FaceDetectorOptions(localModel: faceModel)
    options.minDetectionConfidence = 0.5
    options.maxResultCount = 5
    let detector = try FaceDetector(options: options)
    let faces = try detector.results(in: image)
    print("\(faces.count) face(s)")
    for face in faces {
        print(String(format: "  %.3f  box (%.1f, %.1f, %.1f, %.1f)", face.confidence,
                     face.frame.left, face.frame.top, face.frame.right, face.frame.bottom))
        if let nose = face.keypoint(.noseTip) { print(String(format: "         nose at (%.1f, %.1f)", nose.x, nose.y)) }
    }

    let selfieModel = try LocalModel(path: root.appendingPathComponent("Models/selfie_segmentation.tflite").path)
    let segmenter = try SelfieSegmenter(options: SelfieSegmenterOptions(localModel: selfieModel))
    let mask = try segmenter.results(in: image)
    let person = mask.binaryMask(threshold: 0.5)
    print(String(format: "mask %dx%d, person %.1f%% of pixels", mask.width, mask.height, person.fraction * 100))
    if let box = person.boundingBox { print("person box", box.left, box.top, box.right, box.bottom) }
    let png = try PNGEncoder.encode(mask.grayImage())
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("selfie-mask.png")
    try Data(png).write(to: out)
    print("wrote the mask to \(out.path)")
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
