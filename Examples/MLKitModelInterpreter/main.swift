// ML Kit for Firebase's custom-model interpreter (its iOS guide's Swift), on this package:
// a bundled classifier run on bytes you prepare, its output as nested NSNumber arrays, the
// labels from a text file beside the model, as the guide bundles them.
//
//     swift run MLKitModelInterpreterExample [IMAGE]
import Dispatch
import Foundation
import Imaging
import MLKit

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(1)
}

let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let root = here.deletingLastPathComponent().deletingLastPathComponent()
let modelPath = root.appendingPathComponent("Models/efficientnet_lite0.tflite").path
let labelPath = here.appendingPathComponent("labels.txt").path
let imagePath = CommandLine.arguments.dropFirst().first ?? root.appendingPathComponent("Models/images/chelsea.png").path

let localModel = CustomLocalModel(modelPath: modelPath)
let interpreter = ModelInterpreter.modelInterpreter(localModel: localModel)

// This model takes 224x224 RGB bytes and gives 1000 scores as bytes (score / 256).
let ioOptions = ModelInputOutputOptions()
do {
    try ioOptions.setInputFormat(index: 0, type: .uInt8, dimensions: [1, 224, 224, 3])
    try ioOptions.setOutputFormat(index: 0, type: .uInt8, dimensions: [1, 1000])
} catch let error as NSError {
    fail("Failed to set input or output format with error: \(error.localizedDescription)")
}

// The input: the photo upright, its centred square scaled to 224x224 (as the model was fed
// in training), one byte per channel in RGB order.
guard let visionImage = VisionImage(contentsOfFile: imagePath) else { fail("cannot read an image from \(imagePath)") }
let upright = visionImage.image.applying(visionImage.orientation).converted(to: .rgb)
let side = min(upright.width, upright.height)
let pixels: [UInt8]
do {
    pixels = try upright.cropped(x: (upright.width - side) / 2, y: (upright.height - side) / 2, width: side, height: side)
        .resized(width: 224, height: 224, method: .pillowBilinear).uint8Tensor()
} catch {
    fail("cannot prepare the image: \(error)")
}

let inputs = ModelInputs()
do {
    try inputs.addInput(Data(pixels))
} catch let error as NSError {
    fail("Failed to add input: \(error.localizedDescription)")
}

interpreter.run(inputs: inputs, options: ioOptions) { outputs, error in
    guard error == nil, let outputs else { fail("inference failed: \(error?.localizedDescription ?? "no outputs")") }
    // The first and only output, for a batch of one image.
    let output = try? outputs.output(index: 0) as? [[NSNumber]]
    guard let probabilities = output?[0] else { fail("the output is not [[NSNumber]]") }
    guard let fileContents = try? String(contentsOfFile: labelPath, encoding: .utf8) else { fail("cannot read \(labelPath)") }
    let labels = fileContents.components(separatedBy: "\n")

    let top = probabilities.indices.sorted { probabilities[$0].intValue > probabilities[$1].intValue }.prefix(5)
    for i in top {
        print(String(format: "%4d  %.3f  %@", i, probabilities[i].doubleValue / 256, labels[i]))
    }
    exit(0)
}
dispatchMain()
