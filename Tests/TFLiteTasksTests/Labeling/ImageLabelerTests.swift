import Foundation
import Testing
import TFLiteRuntime
@testable import TFLiteTasks

/// The labeller against LiteRT's goldens for the corpus photo cases, whose inputs were made by
/// a centred square crop and Pillow bilinear resize (the labeller's `cropsToSquare` mode).
@Suite(.serialized) struct ImageLabelerTests {
    static let photos = ["chelsea", "coffee"]

    static func croppedLabeler(_ model: LocalModel, max: Int = 5) throws -> ImageLabeler {
        var options = CustomImageLabelerOptions(localModel: model)
        options.cropsToSquare = true
        options.maxResultCount = max
        // LiteRT's ranking includes classes of confidence 0, which an unset threshold leaves out.
        options.confidenceThreshold = 0
        return try ImageLabeler(options: options)
    }

    @Test(arguments: photos)
    func preprocessingReproducesCorpusInput(_ photo: String) throws {
        let model = try LocalModel(path: TaskFixtures.modelsPath("efficientnet_lite0.tflite"))
        let labeler = try Self.croppedLabeler(model)
        let image = try VisionImage(path: TaskFixtures.modelsPath("images/\(photo).png"))
        let expected = try TaskFixtures.npy(TaskFixtures.corpusPath("cases/efficientnet_lite0__\(photo)/in0.npy"))
        let got = try labeler.preprocessor.tensorBytes(for: image)
        #expect(got.count == expected.data.count)
        #expect(got == expected.data)
    }

    @Test(arguments: photos)
    func topFiveMatchLiteRT(_ photo: String) throws {
        let model = try LocalModel(path: TaskFixtures.modelsPath("efficientnet_lite0.tflite"))
        #expect(model.labels.count == 1000)
        let labels = try Self.croppedLabeler(model).results(in: VisionImage(path: TaskFixtures.modelsPath("images/\(photo).png")))
        // The golden is LiteRT's uint8 softmax (scale 1/256); rank it the same way.
        let golden = try TaskFixtures.npy(TaskFixtures.corpusPath("cases/efficientnet_lite0__\(photo)/out0.npy")).values(as: UInt8.self)
        let order = golden.indices.sorted { golden[$0] > golden[$1] || (golden[$0] == golden[$1] && $0 < $1) }
        #expect(labels.map(\.index) == Array(order.prefix(5)))
        #expect(labels.map(\.confidence) == order.prefix(5).map { Float(golden[$0]) / 256 })
        #expect(labels.map(\.text) == order.prefix(5).map { model.labels[$0] })
    }

    @Test func bundleGivesTheSameLabelsAsBareModel() throws {
        let bundle = try LocalModel(manifestPath: TaskFixtures.corpusPath("bundles/automl_labeler/manifest.json"))
        let bare = try LocalModel(path: TaskFixtures.modelsPath("efficientnet_lite0.tflite"))
        #expect(bundle.labels == bare.labels)
        let image = try VisionImage(path: TaskFixtures.modelsPath("images/chelsea.png"))
        let a = try ImageLabeler(options: .init(localModel: bundle)).results(in: image)
        let b = try ImageLabeler(options: .init(localModel: bare)).results(in: image)
        #expect(a == b)
        // At most the default 10, none of confidence 0 (the threshold is unset).
        #expect(!a.isEmpty && a.count <= 10 && a.allSatisfy { $0.confidence > 0 })
    }

    @Test func softmaxOnlyForNonProbabilities() {
        #expect(ImageLabeler.isProbability([0.25, 0.75]))
        #expect(ImageLabeler.producedByProbabilityOp(try! LocalModel(path: TaskFixtures.modelsPath("efficientnet_lite0.tflite")).model))
        #expect(!ImageLabeler.isProbability([2, -1]))
        let p = ImageLabeler.softmax([0, Float(log(3.0))])
        #expect(abs(p[0] - 0.25) < 1e-6 && abs(p[1] - 0.75) < 1e-6)
    }
}
