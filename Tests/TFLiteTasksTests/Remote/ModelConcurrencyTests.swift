import Foundation
import Testing
@testable import TFLiteTasks

/// Several managers (as several processes would) downloading into one cache directory.
@Suite struct ModelConcurrencyTests {
    @Test(arguments: 1...4)
    func concurrentDownloadsOfOneModelEndWithOneGoodFile(_ round: Int) async throws {
        let bed = try RemoteTestBed()
        let payload = try CorpusModel.large()
        try bed.publish(version: "1", payload: payload)
        let managers = (0..<3).map { _ in ModelManager(cacheDirectory: bed.cache) }
        let results = try await withThrowingTaskGroup(of: ModelDownloadResult.self) { group in
            for index in 0..<6 {
                let manager = managers[index % managers.count]
                group.addTask { try await manager.downloadModel(bed.model, conditions: RemoteTestBed.quick) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 6)
        #expect(Set(results.map(\.model.path)).count == 1)
        #expect(results.contains { !$0.wasUpToDate })
        #expect(bed.folderContents() == [".lock", payload.sha256 + ".tflite", "record.json"])
        let path = try #require(bed.manager.latestModelFilePath(bed.model))
        #expect(try [UInt8](Data(contentsOf: path)) == payload.bytes())
    }

    @Test func anUpgradeRacingADownloadOfTheOldVersionLeavesOneValidModel() async throws {
        let bed = try RemoteTestBed()
        let old = try CorpusModel.large()
        let new = try CorpusModel.upgrade()
        try bed.publish(version: "1", payload: old)
        let first = bed.manager.download(bed.model, conditions: RemoteTestBed.quick)
        let other = ModelManager(cacheDirectory: bed.cache)
        try bed.publish(version: "2", payload: new)
        let second = other.download(bed.model, conditions: RemoteTestBed.quick)
        _ = try await (first.value, second.value)
        let current = try #require(bed.manager.downloadedModel(named: bed.model.name))
        let bytes = try [UInt8](Data(contentsOf: current.path))
        #expect(bytes == (current.version == "1" ? try old.bytes() : try new.bytes()))
        #expect(bed.folderContents() == [".lock", current.sha256 + ".tflite", "record.json"].sorted())
    }
}
