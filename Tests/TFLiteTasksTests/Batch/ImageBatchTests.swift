import Foundation
import Testing
@testable import TFLiteTasks

/// `results(forImagesAt:workers:)`: every file gets one result, in the order given, equal to
/// what the one-image call returns; broken and missing files fail alone.
@Suite struct ImageBatchTests {
    static let photos = ["chelsea", "coffee", "astronaut"].map { URL(fileURLWithPath: TaskFixtures.modelsPath("images/\($0).png")) }

    /// The photos with broken files between them: text named .png, a cut PNG, a missing file.
    static func mixedFiles() throws -> (files: [URL], broken: Set<Int>) {
        let dir = try TaskFixtures.temporaryDirectory()
        let text = dir.appendingPathComponent("text.png")
        try Data("not an image".utf8).write(to: text)
        let cut = dir.appendingPathComponent("cut.png")
        try Data(contentsOf: photos[0]).prefix(200).write(to: cut)
        let missing = dir.appendingPathComponent("missing.jpg")
        return ([photos[0], text, photos[1], cut, missing, photos[2]], [1, 3, 4])
    }

    static func collect<Value>(_ stream: AsyncStream<ImageBatchResult<Value>>) async -> [ImageBatchResult<Value>] {
        var results: [ImageBatchResult<Value>] = []
        for await item in stream { results.append(item) }
        return results
    }

    @Test(arguments: [1, 2, 4])
    func labelsEveryFileInOrderAndSkipsBrokenOnes(workers: Int) async throws {
        let labeler = try ImageLabeler(options: .init(localModel: LocalModel(path: TaskFixtures.modelsPath("efficientnet_lite0.tflite"))))
        let (files, broken) = try Self.mixedFiles()
        let results = await Self.collect(try labeler.results(forImagesAt: files, workers: workers))
        #expect(results.map(\.index) == Array(files.indices))
        #expect(results.map(\.file) == files)
        for item in results {
            if broken.contains(item.index) {
                #expect(item.imageSize == nil)
                #expect(throws: TaskError.self) { try item.result.get() }
            } else {
                let image = try VisionImage(path: item.file.path)
                #expect(item.imageSize == ImageSize(width: image.image.width, height: image.image.height))
                #expect(try item.result.get() == labeler.results(in: image))
            }
        }
        guard case .failure(.fileNotFound) = results[4].result else { Issue.record("missing file: \(results[4].result)"); return }
        guard case .failure(.invalidImage) = results[1].result else { Issue.record("text file: \(results[1].result)"); return }
    }

    @Test func detectsInEveryFileOfABatch() async throws {
        let model = try LocalModel(bundle: TaskFixtures.corpusPath("bundles/automl_detector"))
        let detector = try ObjectDetector(options: .init(localModel: model))
        let (files, broken) = try Self.mixedFiles()
        let results = await Self.collect(try detector.results(forImagesAt: files, workers: 2))
        #expect(results.count == files.count)
        for item in results where !broken.contains(item.index) {
            #expect(try item.result.get() == detector.results(in: VisionImage(path: item.file.path)))
        }
        #expect(results.filter { (try? $0.result.get()) == nil }.map(\.index) == broken.sorted())
    }

    @Test func anEmptyBatchEndsAtOnce() async throws {
        let labeler = try ImageLabeler(options: .init(localModel: LocalModel(path: TaskFixtures.modelsPath("efficientnet_lite0.tflite"))))
        #expect(await Self.collect(try labeler.results(forImagesAt: [])).isEmpty)
    }

    @Test func stoppingEarlyEndsTheBatch() async throws {
        let labeler = try ImageLabeler(options: .init(localModel: LocalModel(path: TaskFixtures.modelsPath("efficientnet_lite0.tflite"))))
        let files = Array(repeating: Self.photos, count: 4).flatMap { $0 }
        var seen = 0
        for await _ in try labeler.results(forImagesAt: files, workers: 2) {
            seen += 1
            break
        }
        #expect(seen == 1)
    }

    @Test func zeroWorkersIsAnError() throws {
        let labeler = try ImageLabeler(options: .init(localModel: LocalModel(path: TaskFixtures.modelsPath("efficientnet_lite0.tflite"))))
        #expect(throws: TaskError.self) { try labeler.results(forImagesAt: Self.photos, workers: 0) }
    }
}
