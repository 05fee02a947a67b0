// ML Kit's image labelling with an AutoML Vision Edge model (its iOS guide's Swift), on this
// package: the bundle's manifest.json names the model and its labels (dict.txt), and
// `LocalModel(manifestPath:)` loads them for the custom image labeller.
//
//     swift run MLKitAutoMLLabelingExample [IMAGE]
import Dispatch
import Foundation
import MLKit

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
// An AutoML export as downloaded: manifest.json, model.tflite and dict.txt in one folder.
let manifestPath = root.appendingPathComponent("Tests/Fixtures/corpus/bundles/automl_labeler/manifest.json").path
let imagePath = CommandLine.arguments.dropFirst().first ?? root.appendingPathComponent("Models/images/chelsea.png").path

let localModel = LocalModel(manifestPath: manifestPath)
let options = CustomImageLabelerOptions(localModel: localModel)
// The guide's advice: pick the threshold from the model's evaluation; 0.1 keeps the clear labels.
options.confidenceThreshold = NSNumber(value: 0.1)
let labeler = ImageLabeler.imageLabeler(options: options)

guard let image = VisionImage(contentsOfFile: imagePath) else {
    FileHandle.standardError.write(Data("cannot read an image from \(imagePath)\n".utf8))
    exit(1)
}
labeler.process(image) { labels, error in
    guard error == nil, let labels, !labels.isEmpty else {
        FileHandle.standardError.write(Data("labelling failed: \(error?.localizedDescription ?? "no labels")\n".utf8))
        exit(1)
    }
    for label in labels {
        print(String(format: "%4d  %.3f  %@", label.index, label.confidence, label.text))
    }
    exit(0)
}
dispatchMain()
