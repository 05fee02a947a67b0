import Foundation
import Testing
@testable import TFLiteTasks

/// Listing, deleting, resolving against a fallback, and distrust of a damaged cache.
@Suite struct ModelCacheTests {
    func downloaded(_ payload: CorpusModel) async throws -> RemoteTestBed {
        let bed = try RemoteTestBed()
        try bed.publish(version: "1", payload: payload)
        _ = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)
        return bed
    }

    @Test func deleteRemovesTheModelAndOnlyOnce() async throws {
        let bed = try await downloaded(try CorpusModel.small())
        try bed.manager.deleteDownloadedModel(bed.model)
        #expect(!bed.manager.isModelDownloaded(bed.model))
        #expect(bed.manager.latestModelFilePath(bed.model) == nil)
        #expect(bed.folderContents() == [".lock"])
        #expect(throws: ModelDownloadError.notDownloaded("flowers")) {
            try bed.manager.deleteDownloadedModel(bed.model)
        }
    }

    @Test func listingShowsEveryDownloadedModelByName() async throws {
        let bed = try await downloaded(try CorpusModel.small())
        let other = try RemoteModel(name: "alpha", source: bed.server.url("/manifests/alpha.json"))
        let payload = try CorpusModel.upgrade()
        bed.server.route("/manifests/alpha.json", .body(RemoteTestBed.manifest(
            name: "alpha", version: "7", url: "alpha.tflite", sha256: payload.sha256, size: payload.size)))
        bed.server.route("/manifests/alpha.tflite", .body(try payload.bytes()))
        _ = try await bed.manager.downloadModel(other, conditions: RemoteTestBed.quick)
        let listed = bed.manager.downloadedModels()
        #expect(listed.map(\.name) == ["alpha", "flowers"])
        #expect(listed.map(\.version) == ["7", "1"])
        #expect(listed.first?.manifestURL == other.source)
    }

    @Test func resolvePrefersTheDownloadAndFallsBackOtherwise() async throws {
        let fallback = URL(fileURLWithPath: "/bundle/flowers.tflite")
        let bed = try RemoteTestBed()
        let before = bed.manager.resolve(remote: bed.model, fallback: fallback)
        #expect(before.path == fallback)
        #expect(!before.isDownloaded)

        try bed.publish(version: "1", payload: try CorpusModel.small())
        let result = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)
        let after = bed.manager.resolve(remote: bed.model, fallback: fallback)
        #expect(after.path == result.model.path)
        #expect(after.origin == .downloaded(result.model))
    }

    @Test func resolveFallsBackWhenTheCachedFileWasDamaged() async throws {
        let bed = try await downloaded(try CorpusModel.small())
        let path = try #require(bed.manager.latestModelFilePath(bed.model))
        // Same size, so only the validator can notice.
        let size = try Data(contentsOf: path).count
        try Data(repeating: 0x5a, count: size).write(to: path)
        let fallback = URL(fileURLWithPath: "/bundle/flowers.tflite")
        let resolved = bed.manager.resolve(remote: bed.model, fallback: fallback)
        #expect(resolved.path == fallback)
        guard case .fallback(let reason) = resolved.origin else {
            Issue.record("expected the fallback")
            return
        }
        #expect(reason.contains("is not usable"))
    }

    @Test func aTamperedRecordIsIgnoredNotFollowed() async throws {
        let bed = try await downloaded(try CorpusModel.small())
        let recordURL = bed.cache.appendingPathComponent("flowers/record.json")
        var record = try JSONSerialization.jsonObject(with: Data(contentsOf: recordURL)) as! [String: Any]
        record["file"] = "../../../../etc/hostname"
        try JSONSerialization.data(withJSONObject: record).write(to: recordURL)
        #expect(bed.manager.downloadedModel(named: "flowers") == nil)
        #expect(!bed.manager.isModelDownloaded(bed.model))
    }

    @Test func aMissingOrResizedFileMeansNotDownloaded() async throws {
        let bed = try await downloaded(try CorpusModel.small())
        let path = try #require(bed.manager.latestModelFilePath(bed.model))
        try Data([1, 2, 3]).write(to: path)
        #expect(!bed.manager.isModelDownloaded(bed.model))
        try FileManager.default.removeItem(at: path)
        #expect(bed.manager.latestModelFilePath(bed.model) == nil)
    }

    @Test func defaultCacheDirectoryFollowsXDG() {
        #if !canImport(Darwin)
        #expect(ModelManager.defaultCacheDirectory(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]).path
            == "/x/cache/swift-tflite/models")
        #expect(ModelManager.defaultCacheDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"]).path
            == "/home/u/.cache/swift-tflite/models")
        #expect(ModelManager.defaultCacheDirectory(environment: ["HOME": "/home/u"]).path
            == "/home/u/.cache/swift-tflite/models")
        #endif
    }
}

extension ModelCacheTests {
    @Test func anUnusableCacheDirectoryFailsWithACacheError() async throws {
        let bed = try RemoteTestBed()
        try bed.publish(version: "1", payload: try CorpusModel.small())
        // The cache path is a regular file, so no model folder can be made in it.
        try Data("not a folder".utf8).write(to: bed.cache)
        let thrown = await #expect(throws: ModelDownloadError.self) {
            try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)
        }
        guard case .cache(let path, _) = thrown else {
            Issue.record("expected a cache error, got \(String(describing: thrown))")
            return
        }
        #expect(path.hasPrefix(bed.cache.path))
        #expect(bed.recorder.events.map(\.succeeded) == [false])
    }
}

extension ModelCacheTests {
    /// A commit removes partial files abandoned over an hour ago and keeps recent ones, which
    /// may belong to a download running in another process.
    @Test func abandonedPartialFilesAreSweptRecentOnesKept() async throws {
        let bed = try RemoteTestBed()
        try bed.publish(version: "1", payload: try CorpusModel.small())
        let folder = bed.cache.appendingPathComponent("flowers")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let abandoned = folder.appendingPathComponent(".partial-abandoned")
        let running = folder.appendingPathComponent(".partial-running")
        try Data([1, 2, 3]).write(to: abandoned)
        try Data([4, 5, 6]).write(to: running)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)],
                                              ofItemAtPath: abandoned.path)
        _ = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        #expect(FileManager.default.fileExists(atPath: running.path))
    }
}
