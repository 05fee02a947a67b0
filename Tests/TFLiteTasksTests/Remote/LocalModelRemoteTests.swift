import Foundation
import Testing
import TestSupport
@testable import TFLiteTasks

/// A labeller or detector model built from a remote model with a local fallback.
@Suite struct LocalModelRemoteTests {
    @Test func usesTheFallbackUntilDownloadedThenTheDownload() async throws {
        let bed = try RemoteTestBed()
        let fallback = try LocalModel(path: Fixtures.models.appendingPathComponent("efficientnet_lite0.tflite").path)
        let before = try LocalModel.resolving(remote: bed.model, fallback: fallback, manager: bed.manager)
        #expect(before.model.modelPath == fallback.modelPath)
        #expect(!before.resolved.isDownloaded)

        try bed.publish(version: "1", payload: try CorpusModel.small())
        let result = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)
        let after = try LocalModel.resolving(remote: bed.model, fallback: fallback, manager: bed.manager)
        #expect(after.model.modelPath == result.model.path.path)
        #expect(after.resolved.isDownloaded)
        // The downloaded model has no label metadata: the fallback's labels carry over.
        #expect(after.model.labels == fallback.labels)
    }
}
