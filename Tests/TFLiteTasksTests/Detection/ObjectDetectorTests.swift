import Foundation
import Testing
import TFLiteRuntime
@testable import TFLiteTasks

/// The detector task on the corpus SSD models and the AutoML detector bundle. Whole-model runs
/// are enabled once the runtime has every op of the detectors.
@Suite struct ObjectDetectorTests {
    static let floatModel = TaskFixtures.corpusPath("models/ssd_detector_float.tflite")
    static let int8Model = TaskFixtures.corpusPath("models/ssd_detector_int8.tflite")
    static let runnable = RuntimeSupport.runsAllOps(floatModel) && RuntimeSupport.runsAllOps(int8Model)

    @Test func preprocessingReproducesCorpusInput() throws {
        // The float detector takes raw uint8 pixels of the whole photo resized to 320x320.
        let model = try LocalModel(path: Self.floatModel)
        // The input as the model declares it (the model is not prepared: no kernels needed).
        let graph = try #require(model.model.schema.subgraphs.first)
        let declared = graph.tensors[Int(graph.inputs[0])]
        #expect(declared.type == .uint8)
        let input = Tensor(name: "input", dataType: .uInt8, shape: declared.shape.map(Int.init), data: [],
                           quantizationParameters: nil)
        let pre = try ImagePreprocessor(tensor: input, normalization: nil)
        let got = try pre.tensorBytes(for: try VisionImage(path: TaskFixtures.modelsPath("images/astronaut.png")))
        let expected = try TaskFixtures.npy(TaskFixtures.corpusPath("cases/ssd_detector_float__astronaut/in0.npy"))
        #expect(got == expected.data)
    }

    @Test(.enabled(if: runnable))
    func floatDetectorMatchesGolden() throws {
        let detector = try ObjectDetector(options: .init(localModel: LocalModel(path: Self.floatModel)))
        let objects = try detector.results(in: VisionImage(path: TaskFixtures.modelsPath("images/astronaut.png")))
        // Corpus outputs in subgraph order: scores, boxes, count, classes.
        let dir = "cases/ssd_detector_float__astronaut/"
        let scores = try TaskFixtures.npy(TaskFixtures.corpusPath(dir + "out0.npy")).values(as: Float.self)
        let boxes = try TaskFixtures.npy(TaskFixtures.corpusPath(dir + "out1.npy")).values(as: Float.self)
        let count = Int(try TaskFixtures.npy(TaskFixtures.corpusPath(dir + "out2.npy")).values(as: Float.self)[0])
        let classes = try TaskFixtures.npy(TaskFixtures.corpusPath(dir + "out3.npy")).values(as: Float.self)
        #expect(objects.count == count)
        for (i, o) in objects.enumerated() where i < count {
            #expect(o.index == Int(classes[i]))
            #expect(abs(o.confidence - scores[i]) <= 1e-4 + 1e-4 * scores[i])
            let clamp = { (v: Float) in min(max(v, 0), 1) * 512 }
            let want = [clamp(boxes[4 * i + 1]), clamp(boxes[4 * i]), clamp(boxes[4 * i + 3]), clamp(boxes[4 * i + 2])]
            let got = [o.frame.left, o.frame.top, o.frame.right, o.frame.bottom]
            for k in 0..<4 { #expect(abs(got[k] - want[k]) <= 0.2) }
        }
    }

    @Test(.enabled(if: runnable))
    func bundleMatchesBareModelWithLabels() throws {
        let bundle = try LocalModel(detectionBundle: TaskFixtures.corpusPath("bundles/automl_detector"))
        let bare = try LocalModel(path: Self.int8Model, labelsPath: TaskFixtures.corpusPath("bundles/automl_detector/dict.txt"))
        #expect(bundle.labels == ["circle", "square", "triangle", "star", "ring"])
        let image = try VisionImage(path: TaskFixtures.modelsPath("images/astronaut.png"))
        let a = try ObjectDetector(options: .init(localModel: bundle)).results(in: image)
        let b = try ObjectDetector(options: .init(localModel: bare)).results(in: image)
        #expect(a == b)
        #expect(!a.isEmpty)
        #expect(a.allSatisfy { !$0.text.isEmpty && $0.text == bundle.labels[$0.index] })
    }

    /// Corpus detector cases (fast NMS) and the regular-NMS cases built from them, through the
    /// interpreter: valid rows and counts against LiteRT's goldens.
    @Test(.enabled(if: runnable), arguments: [
        ("corpus", "ssd_detector_float__astronaut"), ("corpus", "ssd_detector_float__random"),
        ("corpus", "ssd_detector_int8__astronaut"), ("corpus", "ssd_detector_int8__random"),
        ("tasks", "ssd_detector_float_regular_nms__astronaut"), ("tasks", "ssd_detector_float_regular_nms__random"),
        ("tasks", "ssd_detector_int8_regular_nms__astronaut"), ("tasks", "ssd_detector_int8_regular_nms__random"),
    ])
    func wholeModelMatchesGolden(_ root: String, _ name: String) throws {
        let base = root == "corpus" ? TaskFixtures.corpusPath("") : TaskFixtures.path("")
        let model = base + "/models/" + name.components(separatedBy: "__")[0] + ".tflite"
        let interpreter = try Interpreter(modelPath: model)
        try interpreter.allocateTensors()
        try interpreter.copy(try TaskFixtures.npy(base + "/cases/\(name)/in0.npy").data, toInputAt: 0)
        try interpreter.invoke()
        let golden = try (0..<4).map { try TaskFixtures.npy(base + "/cases/\(name)/out\($0).npy").values(as: Float.self) }
        let got = try (0..<4).map { try interpreter.output(at: $0).values(as: Float.self) }
        let n = Int(golden[2][0])
        #expect(got[2] == golden[2])
        #expect(got[3].prefix(n) == golden[3].prefix(n))
        for i in 0..<n { #expect(abs(got[0][i] - golden[0][i]) <= 1e-4 + 1e-4 * abs(golden[0][i])) }
        for i in 0..<(4 * n) { #expect(abs(got[1][i] - golden[1][i]) <= 2e-4 + 1e-4 * abs(golden[1][i])) }
    }
}
