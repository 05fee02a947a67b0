import Foundation
import Imaging
import Testing
import TFLiteRuntime
@testable import TFLiteTasks

/// The face detector on the bundled BlazeFace model against MediaPipe's own face detection on
/// the same images (`Tests/Fixtures/tasks/mediapipe/faces.json`).
///
/// Tolerances: the detector samples the letterbox as MediaPipe does (OpenCV's fixed-point
/// warp, checked in MediaPipeResamplingTests), so the model sees MediaPipe's pixels and what is
/// left is the model arithmetic: MediaPipe runs XNNPACK, this package its own kernels. For this
/// model the corpus measured LiteRT's two CPU paths 1.2e-4 apart in the raw box values (input
/// pixels) and 1.5e-4 in the raw scores; that moves a relative coordinate by 1e-6, a box in a
/// 512-pixel image by 5e-4 pixels, a score by under 4e-5. The checks allow ten times that:
/// 1e-5 relative before projection, 0.005 image pixels after, 4e-4 in scores. (Measured here:
/// scores equal, boxes within 6e-5 and keypoints within 1e-4 pixels.)
@Suite struct FaceDetectorTests {
    static let modelPath = TaskFixtures.modelsPath("face_detection_short_range.tflite")
    static let goldens = (try? MediaPipeGoldens.load(MediaPipeGoldens.Faces.self, "faces.json"))?.images ?? []
    static let detector: FaceDetector? = try? FaceDetector(options: FaceDetectorOptions(localModel: LocalModel(path: modelPath)))

    static func golden(_ name: String) throws -> MediaPipeGoldens.FaceImage {
        try #require(goldens.first { $0.name == name })
    }

    static func faces(in golden: MediaPipeGoldens.FaceImage, options: ((inout FaceDetectorOptions) -> Void)? = nil) throws -> [DetectedFace] {
        var detector = try #require(Self.detector)
        if let options {
            var o = detector.options
            options(&o)
            detector = try FaceDetector(options: o)
        }
        return try detector.results(in: VisionImage(image: MediaPipeGoldens.image(golden.tiles)))
    }

    @Test func goldensAreThere() {
        #expect(Self.goldens.count == 10)
        // Faces in most, none in three photos, two in one.
        #expect(Self.goldens.filter { $0.faces.isEmpty }.count == 3)
        #expect(Self.goldens.contains { $0.faces.count == 2 })
    }

    @Test(arguments: goldens.map(\.name))
    func facesMatchMediaPipe(_ name: String) throws {
        let golden = try Self.golden(name)
        let faces = try Self.faces(in: golden)
        #expect(faces.count == golden.faces.count, "\(name)")
        let w = Float(golden.width), h = Float(golden.height)
        for (face, want) in zip(faces, golden.faces) {
            #expect(abs(face.confidence - want.score) <= 4e-4, "\(name): score \(face.confidence) vs \(want.score)")
            // MediaPipe's relative box in pixels, clipped to the image as its task reports it.
            let b = want.box
            let box = [min(max(b[0] * w, 0), w), min(max(b[1] * h, 0), h), min(max((b[0] + b[2]) * w, 0), w), min(max((b[1] + b[3]) * h, 0), h)]
            let got = [face.frame.left, face.frame.top, face.frame.right, face.frame.bottom]
            for k in 0..<4 { #expect(abs(got[k] - box[k]) <= 0.005, "\(name): box \(got) vs \(box)") }
            #expect(face.keypoints.map(\.kind) == FaceKeypoint.Kind.allCases)
            for (point, p) in zip(face.keypoints, want.keypoints) {
                #expect(abs(point.x - p[0] * w) <= 0.005 && abs(point.y - p[1] * h) <= 0.005, "\(name): \(point) vs \(p)")
            }
        }
    }

    /// MediaPipe's FaceDetector task reports whole pixels (rounded from the same boxes).
    @Test(arguments: goldens.map(\.name))
    func facesMatchMediaPipesTask(_ name: String) throws {
        let golden = try Self.golden(name)
        let faces = try Self.faces(in: golden)
        #expect(faces.count == golden.task_faces.count)
        for (face, want) in zip(faces, golden.task_faces) {
            let b = want.box
            #expect(abs(face.frame.left - b[0]) <= 1 && abs(face.frame.top - b[1]) <= 1, "\(name): \(face.frame) vs \(b)")
            #expect(abs(face.frame.right - face.frame.left - b[2]) <= 1 && abs(face.frame.bottom - face.frame.top - b[3]) <= 1,
                    "\(name): \(face.frame) vs \(b)")
            #expect(abs(face.confidence - want.score) <= 4e-4)
        }
    }

    /// Before suppression: the model's outputs decoded against the anchors, for the images
    /// MediaPipe's letterbox does not resample.
    @Test(arguments: goldens.filter { $0.unfiltered != nil }.map(\.name))
    func decodingMatchesMediaPipe(_ name: String) throws {
        let golden = try Self.golden(name)
        let unfiltered = try #require(golden.unfiltered)
        let detector = try #require(Self.detector)
        let interpreter = try Interpreter(modelPath: Self.modelPath)
        try interpreter.allocateTensors()
        try interpreter.copy(detector.preprocessor.tensorBytes(for: VisionImage(image: MediaPipeGoldens.image(golden.tiles))), toInputAt: 0)
        try interpreter.invoke()
        let decoded = SSDBoxDecoder().decode(boxes: try interpreter.output(at: 0).values(as: Float.self),
                                             scores: try interpreter.output(at: 1).values(as: Float.self),
                                             anchors: detector.anchors)
        #expect(decoded.count == unfiltered.count, "\(name)")
        #expect(decoded.count > 10)
        for (d, w) in zip(decoded, unfiltered.map(\.relative)) {
            #expect(abs(d.score - w.score) <= 4e-4)
            let dv = [d.xMin, d.yMin, d.width, d.height], wv = [w.xMin, w.yMin, w.width, w.height]
            for k in 0..<4 { #expect(abs(dv[k] - wv[k]) <= 1e-5, "\(name): \(dv) vs \(wv)") }
            for (a, b) in zip(d.keypoints, w.keypoints) { #expect(abs(a.x - b.x) <= 1e-5 && abs(a.y - b.y) <= 1e-5) }
        }
    }

    @Test func maxResultCountKeepsTheBest() throws {
        let golden = try Self.golden("astronaut_pair")
        let all = try Self.faces(in: golden)
        let one = try Self.faces(in: golden) { $0.maxResultCount = 1 }
        #expect(all.count == 2)
        #expect(one == [all[0]])
        #expect(all[0].confidence > all[1].confidence)
        #expect(try Self.faces(in: golden) { $0.maxResultCount = 0 }.isEmpty)
    }

    @Test func minDetectionConfidenceDropsWeakerFaces() throws {
        let golden = try Self.golden("astronaut_pair")
        // Between MediaPipe's two scores: only the better face is left.
        let cut = (golden.faces[0].score + golden.faces[1].score) / 2
        let faces = try Self.faces(in: golden) { $0.minDetectionConfidence = cut }
        #expect(faces.count == 1)
        #expect(abs(faces[0].confidence - golden.faces[0].score) <= 4e-4)
    }

    @Test func orientationIsAppliedFirst() throws {
        let golden = try Self.golden("astronaut_landscape")
        let upright = try MediaPipeGoldens.image(golden.tiles)
        // Stored turned, displayed upright by the EXIF orientation: the same faces, same pixels.
        let stored = upright.applying(.left)
        try #require(stored.applying(.right) == upright)
        let detector = try #require(Self.detector)
        let turned = try detector.results(in: VisionImage(image: stored, orientation: .right))
        #expect(!turned.isEmpty)
        #expect(turned == (try detector.results(in: VisionImage(image: upright))))
    }

    @Test func batchMatchesSingleImages() async throws {
        let dir = try TaskFixtures.temporaryDirectory()
        var files: [URL] = []
        for name in ["astronaut_pair", "coffee"] {
            let url = dir.appendingPathComponent(name + ".png")
            try Data(PNGEncoder.encode(MediaPipeGoldens.image(try Self.golden(name).tiles))).write(to: url)
            files.append(url)
        }
        let broken = dir.appendingPathComponent("broken.png")
        try Data("not a PNG".utf8).write(to: broken)
        files.insert(broken, at: 1)
        let detector = try #require(Self.detector)
        var results: [ImageBatchResult<[DetectedFace]>] = []
        for await item in try detector.results(forImagesAt: files, workers: 2) { results.append(item) }
        #expect(results.map(\.file) == files)
        #expect(try results[0].result.get() == (try detector.results(in: VisionImage(path: files[0].path))))
        #expect(try results[0].result.get().count == 2)
        #expect(results[0].imageSize == ImageSize(width: 512, height: 256))
        #expect(throws: TaskError.self) { try results[1].result.get() }
        #expect(try results[2].result.get().isEmpty)
    }

    @Test func modelsOtherThanBlazeFaceAreRejected() throws {
        for path in [TaskFixtures.modelsPath("efficientnet_lite0.tflite"), TaskFixtures.modelsPath("selfie_segmentation.tflite")] {
            let model = try LocalModel(path: path)
            #expect {
                try FaceDetector(options: FaceDetectorOptions(localModel: model))
            } throws: { error in
                guard case TaskError.unsupportedModel(let message) = error else { return false }
                return message.contains("is not a BlazeFace face detector") && message.contains("[1, N, 16]")
            }
        }
    }

    @Test func aDetectorWithOtherAnchorsIsRejected() throws {
        // The full-range detector has BlazeFace's outputs, for 2304 anchors of its own layout.
        let model = try LocalModel(path: TaskFixtures.corpusPath("models/face_detection_full_range_sparse.tflite"))
        #expect {
            try FaceDetector(options: FaceDetectorOptions(localModel: model))
        } throws: { error in
            guard case TaskError.unsupportedModel(let message) = error else { return false }
            return message.contains("2304 boxes") && message.contains("anchors")
        }
    }

    @Test func optionsOutOfRangeAreRejected() throws {
        let model = try LocalModel(path: Self.modelPath)
        var confidence = FaceDetectorOptions(localModel: model)
        confidence.minDetectionConfidence = 1.5
        var suppression = FaceDetectorOptions(localModel: model)
        suppression.minSuppressionThreshold = .nan
        var count = FaceDetectorOptions(localModel: model)
        count.maxResultCount = -1
        for options in [confidence, suppression, count] {
            #expect {
                try FaceDetector(options: options)
            } throws: { error in
                guard case TaskError.invalidFormat = error else { return false }
                return true
            }
        }
    }
}
