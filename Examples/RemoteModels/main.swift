// docs/remote-models.md as a program: download a remotely hosted model named by its manifest,
// then label a photo with it, or with the bundled model when there is no good download. Run it
// from the repository's root, with a manifest served over HTTP (.ci/run serves one on the
// loopback address with `python3 -m http.server`):
//
//     swift run -c release RemoteModelsExample MANIFEST_URL [CACHE_FOLDER]
import Foundation
import TFLiteTasks

let arguments = CommandLine.arguments.dropFirst()
guard let manifestURL = arguments.first.flatMap(URL.init(string:)) else {
    FileHandle.standardError.write(Data("usage: RemoteModelsExample MANIFEST_URL [CACHE_FOLDER]\n".utf8))
    exit(2)
}
let cacheFolder = URL(fileURLWithPath: arguments.dropFirst().first ?? NSTemporaryDirectory() + "remote-models-example")
let bundledModelURL = URL(fileURLWithPath: "Models/efficientnet_lite0.tflite")

let remote = try RemoteModel(name: "flowers", source: manifestURL)
let manager = ModelManager(cacheDirectory: cacheFolder)     // or ModelManager.shared

// Start or refresh the download; it runs in the background.
let progress = manager.download(remote, conditions: ModelDownloadConditions(maxRetries: 5))
// progress.fractionCompleted, progress.completedBytes, progress.totalBytes, progress.cancel()

// An app carries on; a tool can wait for the outcome.
do {
    let result = try await progress.value
    print("downloaded version", result.model.version, result.wasUpToDate ? "(already up to date)" : "")
} catch {
    print("download failed:", error)
}

// Pick the file to load now: the downloaded model if there is a good one, else the bundled one.
let resolved = manager.resolve(remote: remote, fallback: bundledModelURL)
print(resolved.path.path, resolved.isDownloaded)

// Or in one step, as a LocalModel for the task APIs (labels from the fallback if the
// downloaded model has none):
let (model, chosen) = try LocalModel.resolving(remote: remote, fallback: LocalModel(path: bundledModelURL.path), manager: manager)
let labeler = try ImageLabeler(options: CustomImageLabelerOptions(localModel: model))
let best = try labeler.results(in: VisionImage(path: "Models/images/chelsea.png")).first
print(chosen.isDownloaded ? "downloaded model:" : "bundled model:", best?.text ?? "-", best?.confidence ?? 0)
