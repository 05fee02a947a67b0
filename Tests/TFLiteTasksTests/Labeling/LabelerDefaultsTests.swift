import Foundation
import Testing
@testable import TFLiteTasks

/// ML Kit's defaults: 10 results, confidence at or above the threshold; with the threshold
/// unset, results of confidence 0 are left out.
@Suite struct LabelerDefaultsTests {
    static let model = TaskFixtures.modelsPath("efficientnet_lite0.tflite")
    static let photo = TaskFixtures.modelsPath("images/chelsea.png")

    @Test func tenLabelsByDefault() throws {
        let labels = try ImageLabeler(options: .init(localModel: LocalModel(path: Self.model))).results(in: VisionImage(path: Self.photo))
        // The photo has fewer than ten classes above 0 in the uint8 softmax.
        #expect(labels.count <= 10)
        #expect(labels.allSatisfy { $0.confidence > 0 })
    }

    @Test func zeroConfidenceOnlyWithAnExplicitThreshold() throws {
        var options = CustomImageLabelerOptions(localModel: try LocalModel(path: Self.model))
        options.maxResultCount = 1000
        let unset = try ImageLabeler(options: options).results(in: VisionImage(path: Self.photo))
        #expect(unset.allSatisfy { $0.confidence > 0 })
        options.confidenceThreshold = 0
        let zero = try ImageLabeler(options: options).results(in: VisionImage(path: Self.photo))
        #expect(zero.count == 1000)
        #expect(Array(zero.prefix(unset.count)) == unset)
        options.confidenceThreshold = unset[1].confidence
        let atThreshold = try ImageLabeler(options: options).results(in: VisionImage(path: Self.photo))
        #expect(atThreshold.last?.confidence == unset[1].confidence)
    }

    @Test func filterFollowsMLKit() {
        let unset = ConfidenceFilter(threshold: nil, metadataThreshold: nil)
        #expect(!unset.keeps(0) && unset.keeps(0.001))
        let metadata = ConfidenceFilter(threshold: nil, metadataThreshold: 0.5)
        #expect(metadata.keeps(0.5) && !metadata.keeps(0.49))
        let explicit = ConfidenceFilter(threshold: 0, metadataThreshold: 0.5)
        #expect(explicit.keeps(0))
    }
}
