// ML Kit's remotely hosted custom model (its iOS guide's Swift), on this package: download
// conditions, the download's success and failure notifications, then `isModelDownloaded`
// choosing the downloaded model or the bundled one. ML Kit hosts models on Firebase; here a
// JSON manifest on any HTTP(S) server names the file, its size and SHA-256
// (docs/remote-models.md).
//
//     swift run MLKitRemoteLabelingExample [MANIFEST_URL]
//
// With no URL the manifest is looked for on a local port where nothing listens: the download
// fails and the bundled model labels the photo.
import Dispatch
import Foundation
import MLKit

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let localModel = LocalModel(path: root.appendingPathComponent("Models/efficientnet_lite0.tflite").path)
let imagePath = root.appendingPathComponent("Models/images/chelsea.png").path
let manifestURL = CommandLine.arguments.dropFirst().first.flatMap(URL.init(string:))
    ?? URL(string: "http://127.0.0.1:9/classifier.json")!

let remoteModel = CustomRemoteModel(remoteModelSource: URLModelSource(name: "classifier", manifestURL: manifestURL))
print("downloaded before: \(ModelManager.modelManager().isModelDownloaded(remoteModel))")

/// Labels the photo with the downloaded model if there is one, else the bundled one, and exits.
/// Runs on the main queue, once.
var labelled = false
@MainActor func labelWithTheBestModel() {
    guard !labelled else { return }
    labelled = true
    let options: CustomImageLabelerOptions
    if ModelManager.modelManager().isModelDownloaded(remoteModel) {
        print("labelling with the downloaded model")
        options = CustomImageLabelerOptions(remoteModel: remoteModel)
    } else {
        print("labelling with the bundled model")
        options = CustomImageLabelerOptions(localModel: localModel)
    }
    options.confidenceThreshold = NSNumber(value: 0.1)
    guard let image = VisionImage(contentsOfFile: imagePath) else {
        FileHandle.standardError.write(Data("cannot read \(imagePath)\n".utf8))
        exit(1)
    }
    ImageLabeler.imageLabeler(options: options).process(image) { labels, error in
        guard error == nil, let labels else {
            FileHandle.standardError.write(Data("labelling failed: \(error?.localizedDescription ?? "no labels")\n".utf8))
            exit(1)
        }
        for label in labels {
            print(String(format: "%4d  %.3f  %@", label.index, label.confidence, label.text))
        }
        exit(0)
    }
}

// The outcome of the download arrives as a notification, on the thread that posts it.
_ = NotificationCenter.default.addObserver(forName: .mlkitModelDownloadDidSucceed, object: nil, queue: nil) { notification in
    guard let model = notification.userInfo?[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel,
          model.name == "classifier" else { return }
    DispatchQueue.main.async {
        print("download succeeded")
        labelWithTheBestModel()
    }
}
_ = NotificationCenter.default.addObserver(forName: .mlkitModelDownloadDidFail, object: nil, queue: nil) { notification in
    guard let model = notification.userInfo?[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel,
          model.name == "classifier" else { return }
    let error = notification.userInfo?[ModelDownloadUserInfoKey.error.rawValue] as? NSError
    DispatchQueue.main.async {
        print("download failed: \(error?.localizedDescription ?? "unknown error")")
        labelWithTheBestModel()
    }
}

let conditions = ModelDownloadConditions(allowsCellularAccess: true, allowsBackgroundDownloading: true)
let progress = ModelManager.modelManager().download(remoteModel, conditions: conditions)
// The app goes on with the bundled model if the download takes too long.
DispatchQueue.main.asyncAfter(deadline: .now() + 60) {
    guard !labelled else { return }
    print("no outcome after 60 s (\(progress.completedUnitCount) bytes received)")
    progress.cancel()
    labelWithTheBestModel()
}
dispatchMain()
