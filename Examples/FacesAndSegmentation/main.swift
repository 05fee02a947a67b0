// The face detector and the selfie segmenter of docs/faces-and-segmentation.md as a complete
// program, on the bundled MediaPipe models and photo. Run it from the repository's root:
//
//     swift run -c release FacesAndSegmentationExample
import Foundation
import Imaging
import TFLiteTasks

let model = try LocalModel(path: "Models/face_detection_short_range.tflite")
var options = FaceDetectorOptions(localModel: model)
options.minDetectionConfidence = 0.5      // MediaPipe's default
options.maxResultCount = 5                // default: every face found
let detector = try FaceDetector(options: options)

for face in try detector.results(in: VisionImage(path: "Models/images/astronaut.png")) {
    print(face.confidence, face.frame.left, face.frame.top, face.frame.right, face.frame.bottom)
    if let nose = face.keypoint(.noseTip) { print("nose at", nose.x, nose.y) }
}

let selfieModel = try LocalModel(path: "Models/selfie_segmentation.tflite")
let segmenter = try SelfieSegmenter(options: SelfieSegmenterOptions(localModel: selfieModel))
let mask = try segmenter.results(in: VisionImage(path: "Models/images/astronaut.png"))
print(mask.width, mask.height, mask[256, 300])          // the image's size; a confidence 0...1

let person = mask.binaryMask(threshold: 0.5)              // true where confidence > 0.5
print(person.fraction, person.boundingBox as Any)
let png = try PNGEncoder.encode(mask.grayImage())         // 8-bit gray, 255 x confidence

let out = FileManager.default.temporaryDirectory.appendingPathComponent("selfie-mask.png")
try Data(png).write(to: out)
print("wrote the mask to \(out.path)")
