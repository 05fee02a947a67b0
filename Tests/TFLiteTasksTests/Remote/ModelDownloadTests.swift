import Foundation
import Testing
@testable import TFLiteTasks

/// Downloads from a loopback server that behaves: first download, no-op, upgrade, resume,
/// retry, cancellation.
@Suite struct ModelDownloadTests {
    @Test func firstDownloadStoresTheVerifiedFileAndReportsProgress() async throws {
        let bed = try RemoteTestBed()
        let payload = try CorpusModel.large()
        try bed.publish(version: "1", payload: payload)
        #expect(!bed.manager.isModelDownloaded(bed.model))

        let progress = bed.manager.download(bed.model, conditions: RemoteTestBed.quick)
        let result = try await progress.value

        #expect(!result.wasUpToDate)
        #expect(progress.isFinished)
        #expect(progress.fractionCompleted == 1)
        #expect(progress.completedBytes == Int64(payload.size))
        #expect(progress.totalBytes == Int64(payload.size))
        #expect(result.model.version == "1")
        #expect(result.model.sha256 == payload.sha256)
        #expect(result.model.modelURL == bed.server.url("/manifests/flowers-1.tflite"))
        let path = try #require(bed.manager.latestModelFilePath(bed.model))
        #expect(path.lastPathComponent == payload.sha256 + ".tflite")
        #expect(try [UInt8](Data(contentsOf: path)) == payload.bytes())
        #expect(bed.folderContents() == [".lock", payload.sha256 + ".tflite", "record.json"])
        let events = bed.recorder.events
        #expect(events.count == 1)
        #expect(events.first?.succeeded == true)
        #expect(events.first?.model == bed.model)
        #expect(events.first?.result == result)
    }

    @Test func secondDownloadOfTheSameVersionTransfersNothing() async throws {
        let bed = try RemoteTestBed()
        let payload = try CorpusModel.small()
        let file = try bed.publish(version: "1", payload: payload)
        let first = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)
        let second = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)

        #expect(!first.wasUpToDate)
        #expect(second.wasUpToDate)
        #expect(second.model == first.model)
        #expect(bed.server.requests(to: bed.manifestPath).count == 2)
        #expect(bed.server.requests(to: file).count == 1)
        #expect(bed.recorder.events.map(\.succeeded) == [true, true])
    }

    @Test func aNewVersionInTheManifestReplacesTheModel() async throws {
        let bed = try RemoteTestBed()
        let old = try CorpusModel.small()
        let new = try CorpusModel.upgrade()
        try bed.publish(version: "1", payload: old)
        let first = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)
        try bed.publish(version: "2", payload: new)
        let second = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)

        #expect(!second.wasUpToDate)
        #expect(second.model.version == "2")
        #expect(second.model.path != first.model.path)
        let path = try #require(bed.manager.latestModelFilePath(bed.model))
        #expect(try [UInt8](Data(contentsOf: path)) == new.bytes())
        #expect(!FileManager.default.fileExists(atPath: first.model.path.path))
        #expect(bed.folderContents() == [".lock", new.sha256 + ".tflite", "record.json"].sorted())
    }

    @Test func aConnectionDroppedOnceIsResumedWithARangeRequest() async throws {
        let bed = try RemoteTestBed()
        let payload = try CorpusModel.large()
        let bytes = try payload.bytes()
        let file = try bed.publish(version: "1", payload: payload,
                                   replies: [.dropAfter(bytes, bytes: 100_000), .body(bytes)])
        let result = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)

        let requests = bed.server.requests(to: file)
        #expect(requests.count == 2)
        #expect(requests.first?.headers["range"] == nil)
        let range = try #require(requests.last?.headers["range"])
        let resumedAt = try #require(Int(range.dropFirst("bytes=".count).dropLast()))
        #expect(range == "bytes=\(resumedAt)-")
        #expect(resumedAt > 0 && resumedAt <= 100_000)
        #expect(result.model.sha256 == payload.sha256)
        #expect(try [UInt8](Data(contentsOf: result.model.path)) == bytes)
    }

    @Test func transientServerErrorsAreRetriedWithBackoff() async throws {
        let bed = try RemoteTestBed()
        let payload = try CorpusModel.small()
        let file = try bed.publish(version: "1", payload: payload,
                                   replies: [.status(503), .status(500), .body(payload.bytes())])
        let result = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)
        #expect(result.model.sha256 == payload.sha256)
        #expect(bed.server.requests(to: file).count == 3)
    }

    @Test func aServerThatIgnoresRangeRestartsTheFileFromZero() async throws {
        let bed = try RemoteTestBed()
        let payload = try CorpusModel.large()
        let bytes = try payload.bytes()
        // The second reply is a full 200 body even though a range was asked for.
        let file = try bed.publish(version: "1", payload: payload,
                                   replies: [.dropAfter(bytes, bytes: 50_000), .dropAfter(bytes, bytes: bytes.count)])
        let result = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)
        #expect(bed.server.requests(to: file).count == 2)
        #expect(try [UInt8](Data(contentsOf: result.model.path)) == bytes)
    }

    @Test func cancellingStopsTheDownloadAndKeepsTheCacheAsItWas() async throws {
        let bed = try RemoteTestBed()
        let payload = try CorpusModel.large()
        try bed.publish(version: "1", payload: payload,
                        replies: [.stall(try payload.bytes(), bytes: 1000, seconds: 5)])
        let conditions = ModelDownloadConditions(requestTimeout: 10, maxRetries: 0)
        let progress = bed.manager.download(bed.model, conditions: conditions)
        while progress.completedBytes < 1000 && !progress.isFinished {
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        #expect(!progress.isFinished)
        #expect(progress.completedBytes == 1000)
        #expect(progress.totalBytes == Int64(payload.size))
        #expect(progress.fractionCompleted == 1000 / Double(payload.size))
        progress.cancel()
        await #expect(throws: ModelDownloadError.cancelled) { try await progress.value }
        #expect(!bed.manager.isModelDownloaded(bed.model))
        #expect(!bed.folderContents().contains { $0.hasPrefix(".partial-") || $0.hasSuffix(".tflite") })
        #expect(bed.recorder.events.first?.error == .cancelled)
    }

    @Test func httpRedirectsAreFollowed() async throws {
        let bed = try RemoteTestBed()
        let payload = try CorpusModel.small()
        // The manifest moved; its relative model URL resolves against where it was found.
        bed.server.route(bed.manifestPath, .redirect("/moved/flowers.json"))
        bed.server.route("/moved/flowers.json", .body(RemoteTestBed.manifest(
            name: "flowers", version: "1", url: "flowers-1.tflite", sha256: payload.sha256, size: payload.size)))
        bed.server.route("/moved/flowers-1.tflite", .redirect(bed.server.url("/files/f.tflite").absoluteString))
        bed.server.route("/files/f.tflite", .body(try payload.bytes()))
        let result = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)
        #expect(result.model.sha256 == payload.sha256)
        #expect(result.model.modelURL == bed.server.url("/moved/flowers-1.tflite"))
        #expect(bed.server.requests(to: "/files/f.tflite").count == 1)
    }

    @Test func backoffDoublesUpToTheCap() {
        let conditions = ModelDownloadConditions(initialBackoff: 0.25, maximumBackoff: 1.5)
        let waits = (0..<5).map { conditions.backoff(beforeRetry: $0) }
        #expect(waits == [0.25, 0.5, 1.0, 1.5, 1.5])
    }
}
