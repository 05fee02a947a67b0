import Foundation
import Imaging
import MLKit
import Testing
import TestSupport
import TFLiteRuntime

/// ML Kit's custom image labelling, written as its guide writes it, against LiteRT's goldens.
@Suite struct ImageLabelerTests {
    static let modelPath = Fixtures.models.appendingPathComponent("efficientnet_lite0.tflite").path

    /// The corpus input for `photo`: 224x224 RGB pixels, the model's input size, so the
    /// labeller's resize leaves them as they are and its scores are LiteRT's.
    static func corpusPhoto(_ photo: String) throws -> (VisionImage, golden: [UInt8]) {
        let input = try NPYArray(contentsOf: Fixtures.corpusFile("cases/efficientnet_lite0__\(photo)/in0.npy").path)
        let golden = try NPYArray(contentsOf: Fixtures.corpusFile("cases/efficientnet_lite0__\(photo)/out0.npy").path)
        let image = try Image(width: 224, height: 224, pixelLayout: .rgb, pixels: input.data)
        return (VisionImage(image: image), golden.values(as: UInt8.self))
    }

    @Test func guideSnippetMatchesLiteRT() throws {
        let localModel = LocalModel(path: Self.modelPath)
        let options = CustomImageLabelerOptions(localModel: localModel)
        options.confidenceThreshold = NSNumber(value: 0.0)
        options.maxResultCount = 5
        let imageLabeler = ImageLabeler.imageLabeler(options: options)
        let (image, golden) = try Self.corpusPhoto("chelsea")
        let labels = try imageLabeler.results(in: image)
        // LiteRT's output is a uint8 softmax (scale 1/256); rank it the same way.
        let order = golden.indices.sorted { golden[$0] > golden[$1] || (golden[$0] == golden[$1] && $0 < $1) }
        #expect(labels.map(\.index) == Array(order.prefix(5)))
        #expect(labels.map(\.confidence) == order.prefix(5).map { Float(golden[$0]) / 256 })
        #expect(labels.allSatisfy { !$0.text.isEmpty })
    }

    @Test func processCallsBackOnTheMainQueue() async throws {
        let imageLabeler = ImageLabeler.imageLabeler(options: CustomImageLabelerOptions(localModel: LocalModel(path: Self.modelPath)))
        let (image, golden) = try Self.corpusPhoto("coffee")
        // The main queue, not the main thread: under `dispatchMain()` (as here) worker threads serve it.
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        let labels: [ImageLabel] = try await withCheckedThrowingContinuation { continuation in
            imageLabeler.process(image) { labels, error in
                #expect(DispatchQueue.getSpecific(key: key) == true)
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: labels ?? []) }
            }
        }
        #expect(labels.count == 10)
        #expect(labels.first?.index == golden.indices.max { golden[$0] < golden[$1] })
    }

    @Test func autoMLBundleLabelsLikeItsModel() throws {
        let bundle = LocalModel(manifestPath: Fixtures.corpusFile("bundles/automl_labeler/manifest.json").path)
        let (image, _) = try Self.corpusPhoto("chelsea")
        let a = try ImageLabeler.imageLabeler(options: CustomImageLabelerOptions(localModel: bundle)).results(in: image)
        let b = try ImageLabeler.imageLabeler(options: CustomImageLabelerOptions(localModel: LocalModel(path: Self.modelPath))).results(in: image)
        #expect(a.map(\.index) == b.map(\.index))
        #expect(a.map(\.text) == b.map(\.text))
    }

    @Test func aMissingModelIsReportedWhenLabelling() throws {
        let imageLabeler = ImageLabeler.imageLabeler(options: CustomImageLabelerOptions(localModel: LocalModel(path: "/nonexistent/model.tflite")))
        let (image, _) = try Self.corpusPhoto("chelsea")
        do {
            _ = try imageLabeler.results(in: image)
            Issue.record("labelled with a missing model")
        } catch let error as NSError {
            #expect(error.domain == "MLKit")
            #expect(error.localizedDescription.contains("/nonexistent/model.tflite"))
        }
    }

    @Test func undecodableFilesGiveNoImage() {
        #expect(VisionImage(contentsOfFile: Fixtures.corpusFile("images/broken_png_bad_crc.png").path) == nil)
        #expect(VisionImage(contentsOfFile: "/nonexistent.png") == nil)
        #expect(VisionImage(contentsOfFile: Fixtures.models.appendingPathComponent("images/chelsea.png").path) != nil)
    }
}
