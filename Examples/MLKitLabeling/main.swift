// ML Kit's custom-model image labelling (its iOS guide's Swift), on this package:
// `import MLKit`, a bundled classifier, labels delivered on the main queue.
//
//     swift run MLKitLabelingExample [IMAGE]
import Dispatch
import Foundation
import MLKit

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let modelPath = root.appendingPathComponent("Models/efficientnet_lite0.tflite").path
let imagePath = CommandLine.arguments.dropFirst().first ?? root.appendingPathComponent("Models/images/chelsea.png").path

let localModel = LocalModel(path: modelPath)
let options = CustomImageLabelerOptions(localModel: localModel)
options.confidenceThreshold = NSNumber(value: 0.1)
let imageLabeler = ImageLabeler.imageLabeler(options: options)

guard let image = VisionImage(contentsOfFile: imagePath) else {
    FileHandle.standardError.write(Data("cannot read an image from \(imagePath)\n".utf8))
    exit(1)
}
imageLabeler.process(image) { labels, error in
    guard error == nil, let labels else {
        FileHandle.standardError.write(Data("labelling failed: \(error?.localizedDescription ?? "no labels")\n".utf8))
        exit(1)
    }
    for label in labels {
        print(String(format: "%4d  %.3f  %@", label.index, label.confidence, label.text))
    }
    exit(0)
}
dispatchMain()
