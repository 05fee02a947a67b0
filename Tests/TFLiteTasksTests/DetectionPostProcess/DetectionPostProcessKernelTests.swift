import Kernels
import Testing
import TFLiteRuntime

/// The post-processing kernel fed with the op inputs LiteRT computed inside the corpus
/// detectors (fixtures made by Tests/Fixtures/tasks/make_postprocess_fixtures.py), against the
/// op outputs LiteRT produced from them; `_regular` cases run with `use_regular_nms` set.
@Suite struct DetectionPostProcessKernelTests {
    static let cases = ["ssd_detector_float__astronaut", "ssd_detector_float__random",
                        "ssd_detector_int8__astronaut", "ssd_detector_int8__random"]
    static let allCases = cases + cases.map { $0 + "_regular" }

    /// The options both corpus detectors carry (read from their FlexBuffer custom options).
    static func params(regular: Bool) -> DetectionPostProcessParams {
        DetectionPostProcessParams(maxDetections: 40, maxClassesPerDetection: 1, scoreThreshold: 0.5,
                                   iouThreshold: 0.5, numClasses: 5, useRegularNMS: regular,
                                   yScale: 10, xScale: 10, hScale: 5, wScale: 5)
    }

    struct Result {
        var boxes: [Float], classes: [Float], scores: [Float], count: Float
    }

    static func run(_ name: String, params: DetectionPostProcessParams) throws -> Result {
        let dir = "postprocess/\(name)/"
        let encodings = try TaskFixtures.npy(TaskFixtures.path(dir + "boxes.npy"))
        let scores = try TaskFixtures.npy(TaskFixtures.path(dir + "scores.npy"))
        let anchors = try TaskFixtures.npy(TaskFixtures.path(dir + "anchors.npy"))
        let numBoxes = encodings.shape[1], codeSize = encodings.shape[2], stride = scores.shape[2]
        let rows = params.outputRows
        var decoded = [Float](repeating: 0, count: numBoxes * 4)
        var result = Result(boxes: .init(repeating: -1, count: rows * 4), classes: .init(repeating: -1, count: rows),
                            scores: .init(repeating: -1, count: rows), count: -1)
        let e = encodings.values(as: Float.self), a = anchors.values(as: Float.self), s = scores.values(as: Float.self)
        DetectionPostProcess.decodeBoxes(encodings: e, codeSize: codeSize, anchors: a, count: numBoxes,
                                         params: params, into: &decoded)
        var workspace = [UInt8](repeating: 0, count: DetectionPostProcess.workspaceBytes(params: params, numBoxes: numBoxes))
        try result.boxes.withUnsafeMutableBufferPointer { b in
            try result.classes.withUnsafeMutableBufferPointer { c in
                try result.scores.withUnsafeMutableBufferPointer { sc in
                    try withUnsafeMutablePointer(to: &result.count) { n in
                        try workspace.withUnsafeMutableBytes { w in
                            try DetectionPostProcess.run(
                                params: params, boxes: decoded, numBoxes: numBoxes, scores: s, classesWithBackground: stride,
                                outputs: .init(boxes: b.baseAddress!, classes: c.baseAddress!, scores: sc.baseAddress!, count: n),
                                workspace: w.baseAddress!)
                        }
                    }
                }
            }
        }
        return result
    }

    @Test(arguments: allCases)
    func matchesLiteRT(_ name: String) throws {
        let regular = name.hasSuffix("_regular")
        let got = try Self.run(name, params: Self.params(regular: regular))
        let dir = "postprocess/\(name)/"
        let count = try TaskFixtures.npy(TaskFixtures.path(dir + "out_count.npy")).values(as: Float.self)[0]
        let boxes = try TaskFixtures.npy(TaskFixtures.path(dir + "out_boxes.npy")).values(as: Float.self)
        let classes = try TaskFixtures.npy(TaskFixtures.path(dir + "out_classes.npy")).values(as: Float.self)
        let scores = try TaskFixtures.npy(TaskFixtures.path(dir + "out_scores.npy")).values(as: Float.self)
        #expect(got.count == count)
        let n = Int(count)
        #expect(n > 0)
        // Same inputs, same arithmetic: the valid rows must be bit-identical.
        #expect(Array(got.boxes[0..<(4 * n)]) == Array(boxes[0..<(4 * n)]))
        #expect(Array(got.classes[0..<n]) == Array(classes[0..<n]))
        #expect(Array(got.scores[0..<n]) == Array(scores[0..<n]))
        // Rows past the count are zeroed (LiteRT leaves them unwritten with fast NMS).
        #expect(got.scores[n...].allSatisfy { $0 == 0 })
    }

    @Test func regularAndFastDiffer() throws {
        // The patched flag must change the result on at least one case, or the regular cases
        // would not test the per-class path.
        var differs = false
        for name in Self.cases {
            let fast = try Self.run(name, params: Self.params(regular: false))
            let regular = try Self.run(name, params: Self.params(regular: true))
            if fast.count != regular.count || fast.classes != regular.classes { differs = true }
        }
        #expect(differs)
    }

    @Test func invertedBoxIsAnError() throws {
        let boxes: [Float] = [0, 0, 1, 1, 0.5, 0.5, 0.2, 0.9]
        let scores: [Float] = [0.9, 0.8]
        let p = DetectionPostProcessParams(maxDetections: 2, maxClassesPerDetection: 1, scoreThreshold: 0.1,
                                           iouThreshold: 0.5, numClasses: 1, useRegularNMS: false,
                                           yScale: 1, xScale: 1, hScale: 1, wScale: 1)
        var ob = [Float](repeating: 0, count: 8), oc = [Float](repeating: 0, count: 2)
        var os = [Float](repeating: 0, count: 2), on: Float = 0
        var workspace = [UInt8](repeating: 0, count: DetectionPostProcess.workspaceBytes(params: p, numBoxes: 2))
        #expect(throws: DetectionPostProcessError.invertedBox(anchor: 1)) {
            try DetectionPostProcess.run(params: p, boxes: boxes, numBoxes: 2, scores: scores, classesWithBackground: 1,
                                         outputs: .init(boxes: &ob, classes: &oc, scores: &os, count: &on), workspace: &workspace)
        }
    }
}
