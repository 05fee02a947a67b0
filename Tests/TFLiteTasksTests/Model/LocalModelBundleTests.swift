import Foundation
import Testing
@testable import TFLiteTasks

/// `LocalModel(bundle:)`: a bundle's folder or the file describing it, for labelling and
/// detection bundles alike.
@Suite struct LocalModelBundleTests {
    @Test(arguments: ["bundles/automl_labeler", "bundles/automl_labeler/manifest.json"])
    func labelingBundle(_ path: String) throws {
        let model = try LocalModel(bundle: TaskFixtures.corpusPath(path))
        #expect(model.kind == .autoMLImageLabeling)
        #expect(model.labels.count == 1000)
    }

    @Test(arguments: ["bundles/automl_detector", "bundles/automl_detector/tflite_metadata.json"])
    func detectionBundle(_ path: String) throws {
        let model = try LocalModel(bundle: TaskFixtures.corpusPath(path))
        guard case .autoMLObjectDetection = model.kind else { Issue.record("kind \(model.kind)"); return }
        #expect(!model.labels.isEmpty)
    }

    @Test func aFolderWithoutManifestSaysWhatItLacks() throws {
        let dir = try TaskFixtures.temporaryDirectory()
        #expect {
            try LocalModel(bundle: dir.path)
        } throws: { error in
            guard case TaskError.invalidBundle(let message) = error else { return false }
            return message.contains("manifest.json") && message.contains("tflite_metadata.json")
        }
        #expect(throws: TaskError.fileNotFound(dir.appendingPathComponent("none").path)) {
            try LocalModel(bundle: dir.appendingPathComponent("none").path)
        }
    }
}
