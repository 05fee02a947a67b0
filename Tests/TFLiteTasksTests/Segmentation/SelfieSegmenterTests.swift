import Foundation
import Imaging
import Testing
import TFLiteRuntime
@testable import TFLiteTasks

/// The selfie segmenter on the bundled model against MediaPipe's ImageSegmenter task on the
/// same images (`Tests/Fixtures/tasks/mediapipe/segmentation.json`, masks stored as 8-bit PNG).
///
/// Tolerances: the input is sampled as MediaPipe samples it (bit for bit, see
/// MediaPipeResamplingTests) and the mask resized as it resizes it, so the differences are
/// the model arithmetic (XNNPACK there, this package's kernels here, last bits of floats) plus
/// the goldens' 8-bit storage (up to 0.002). The mean absolute difference must stay under
/// 0.002 and the person masks (confidence above 0.5) must overlap with an IoU of 0.995 or more,
/// against both MediaPipe's confidence and category masks. MediaPipe computes its category
/// mask by a different interpolation (corner-aligned), which costs it a few boundary pixels;
/// measured IoUs are 1.0 against the confidence masks and about 0.997 against the category ones.
@Suite struct SelfieSegmenterTests {
    static let modelPath = TaskFixtures.modelsPath("selfie_segmentation.tflite")
    static let goldens = (try? MediaPipeGoldens.load(MediaPipeGoldens.Segmentation.self, "segmentation.json"))?.images ?? []
    static let segmenter: SelfieSegmenter? = try? SelfieSegmenter(options: SelfieSegmenterOptions(localModel: LocalModel(path: modelPath)))

    static func iou(_ a: [Bool], _ b: [Bool]) -> Double {
        let both = zip(a, b).filter { $0 && $1 }.count, either = zip(a, b).filter { $0 || $1 }.count
        return either == 0 ? 1 : Double(both) / Double(either)
    }

    @Test func goldensAreThere() {
        #expect(Self.goldens.count == 4)
    }

    @Test(arguments: goldens.map(\.name))
    func masksMatchMediaPipe(_ name: String) throws {
        let golden = try #require(Self.goldens.first { $0.name == name })
        let segmenter = try #require(Self.segmenter)
        let mask = try segmenter.results(in: VisionImage(image: MediaPipeGoldens.image(golden.tiles)))
        #expect(mask.width == golden.width && mask.height == golden.height)
        let confidence = try #require(try MediaPipeGoldens.png(golden.confidence_mask).pixels8).map { Float($0) / 255 }
        let category = try #require(try MediaPipeGoldens.png(golden.category_mask).pixels8).map { $0 == 0 }
        #expect(confidence.count == mask.values.count && category.count == mask.values.count)
        let meanDifference = zip(mask.values, confidence).reduce(0.0) { $0 + Double(abs($1.0 - $1.1)) } / Double(confidence.count)
        #expect(meanDifference <= 0.002, "\(name): mean |difference| \(meanDifference)")
        let person = mask.binaryMask(threshold: 0.5).values
        let againstConfidence = Self.iou(person, confidence.map { $0 > 0.5 })
        let againstCategory = Self.iou(person, category)
        #expect(againstConfidence >= 0.995, "\(name): IoU \(againstConfidence)")
        #expect(againstCategory >= 0.995, "\(name): IoU with the category mask \(againstCategory)")
    }

    @Test func theModelsOwnMaskIsItsOutputSize() throws {
        let segmenter = try #require(Self.segmenter)
        let golden = try #require(Self.goldens.first)
        let mask = try segmenter.modelMask(for: VisionImage(image: MediaPipeGoldens.image(golden.tiles)))
        #expect(mask.width == segmenter.maskWidth && mask.height == segmenter.maskHeight)
        #expect(mask.width == 256 && mask.height == 256)
    }

    @Test func binaryMaskCutsAboveTheThreshold() throws {
        let mask = try ConfidenceMask(width: 3, height: 1, values: [0.25, 0.5, 0.75])
        #expect(mask.binaryMask(threshold: 0.5).values == [false, false, true])
        #expect(mask.binaryMask(threshold: 0.2).count == 3)
        let person = mask.binaryMask(threshold: 0.4)
        #expect(person.boundingBox == PixelRect(left: 1, top: 0, right: 3, bottom: 1))
        #expect(mask.binaryMask(threshold: 0.9).boundingBox == nil)
    }

    @Test func modelsOtherThanSegmentersAreRejected() throws {
        for path in [TaskFixtures.modelsPath("efficientnet_lite0.tflite"), TaskFixtures.modelsPath("face_detection_short_range.tflite")] {
            let model = try LocalModel(path: path)
            #expect {
                try SelfieSegmenter(options: SelfieSegmenterOptions(localModel: model))
            } throws: { error in
                guard case TaskError.unsupportedModel(let message) = error else { return false }
                return message.contains("is not a selfie segmenter")
            }
        }
    }
}
