import Foundation
import MLKit
import TestSupport
import Testing
@testable import TFLiteTasks

/// ML Kit's remote-model flow through the `MLKit` module (here, beside the loopback server of
/// the downloader's own tests): download with a Foundation `Progress`, the success and failure
/// notifications on `NotificationCenter.default`, `isModelDownloaded`, a labeller built from the
/// downloaded model, and the fall-back to the bundled model when the download fails.
@Suite(.serialized) struct MLKitRemoteModelTests {
    /// Waits (up to 30 s) for ML Kit's download notification about `remote`.
    static func notification(about remote: CustomRemoteModel, start: () -> Progress) async -> (Notification, Progress)? {
        let box = NotificationBox()
        let tokens = [Notification.Name.mlkitModelDownloadDidSucceed, .mlkitModelDownloadDidFail].map { name in
            NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { n in
                if (n.userInfo?[MLKit.ModelDownloadUserInfoKey.remoteModel.rawValue] as? MLKit.RemoteModel) === remote { box.set(n) }
            }
        }
        defer { tokens.forEach(NotificationCenter.default.removeObserver) }
        let progress = start()
        for _ in 0..<3000 {
            if let n = box.value { return (n, progress) }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return nil
    }

    final class NotificationBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Notification?
        func set(_ n: Notification) { lock.lock(); if stored == nil { stored = n }; lock.unlock() }
        var value: Notification? { lock.lock(); defer { lock.unlock() }; return stored }
    }

    static func labels(_ options: MLKit.CustomImageLabelerOptions) throws -> [String] {
        let loaded = MLKit.VisionImage(contentsOfFile: TaskFixtures.modelsPath("images/chelsea.png"))
        let image = try #require(loaded)
        return try MLKit.ImageLabeler.imageLabeler(options: options).results(in: image).map(\.text)
    }

    @Test func downloadedModelLabelsLikeTheLocalFile() async throws {
        let bed = try RemoteTestBed(name: "classifier")
        let payload = try CorpusModel.named("models/efficientnet_lite0.tflite")
        try bed.publish(version: "1", payload: payload)
        let manager = MLKit.ModelManager(cacheDirectory: bed.cache.appendingPathComponent("mlkit"))
        let remote = CustomRemoteModel(remoteModelSource: URLModelSource(name: "classifier", manifestURL: bed.server.url(bed.manifestPath)))
        #expect(!manager.isModelDownloaded(remote))

        let conditions = MLKit.ModelDownloadConditions(allowsCellularAccess: true, allowsBackgroundDownloading: false)
        let got = await Self.notification(about: remote) { manager.download(remote, conditions: conditions) }
        let (note, progress) = try #require(got, "no download notification within 30 s")
        #expect(note.name == .mlkitModelDownloadDidSucceed)
        #expect(progress.totalUnitCount == Int64(payload.size))
        #expect(progress.completedUnitCount == Int64(payload.size))
        #expect(manager.isModelDownloaded(remote))

        let local = MLKit.LocalModel(path: Fixtures.corpus.appendingPathComponent("models/efficientnet_lite0.tflite").path)
        let fromRemote = try Self.labels(MLKit.CustomImageLabelerOptions(remoteModel: remote, modelManager: manager))
        #expect(!fromRemote.isEmpty)
        #expect(fromRemote == (try Self.labels(MLKit.CustomImageLabelerOptions(localModel: local))))
    }

    @Test func aFailedDownloadIsReportedAndTheLocalModelServes() async throws {
        let bed = try RemoteTestBed(name: "missing")
        bed.server.route(bed.manifestPath, .status(404))
        let manager = MLKit.ModelManager(cacheDirectory: bed.cache.appendingPathComponent("mlkit"))
        let remote = CustomRemoteModel(remoteModelSource: URLModelSource(name: "missing", manifestURL: bed.server.url(bed.manifestPath)))
        let conditions = MLKit.ModelDownloadConditions(allowsCellularAccess: true, allowsBackgroundDownloading: false)
        let got = await Self.notification(about: remote) { manager.download(remote, conditions: conditions) }
        let (note, _) = try #require(got, "no download notification within 30 s")
        #expect(note.name == .mlkitModelDownloadDidFail)
        #expect(note.userInfo?[MLKit.ModelDownloadUserInfoKey.error.rawValue] is NSError)
        #expect(!manager.isModelDownloaded(remote))

        // ML Kit's guide: use the remote model when it is downloaded, else the bundled one.
        let local = MLKit.LocalModel(path: Fixtures.corpus.appendingPathComponent("models/efficientnet_lite0.tflite").path)
        let options = manager.isModelDownloaded(remote) ? MLKit.CustomImageLabelerOptions(remoteModel: remote, modelManager: manager)
                                                        : MLKit.CustomImageLabelerOptions(localModel: local)
        #expect(try Self.labels(options).first == "Egyptian cat")
    }
}
