import Foundation
import Testing
@testable import TFLiteTasks

/// Bad bundles and bad images: each gives a typed error naming the problem.
@Suite struct BundleErrorTests {
    /// A copy of the corpus labeller bundle whose manifest and labels can be changed.
    static func labelerBundle(manifest: String? = nil, labels: String? = nil, dropModel: Bool = false) throws -> String {
        let dir = try TaskFixtures.temporaryDirectory()
        let src = URL(fileURLWithPath: TaskFixtures.corpusPath("bundles/automl_labeler"))
        for f in ["manifest.json", "dict.txt", "model.tflite"] where !(dropModel && f == "model.tflite") {
            try Data(contentsOf: src.appendingPathComponent(f).resolvingSymlinksInPath()).write(to: dir.appendingPathComponent(f))
        }
        if let manifest { try Data(manifest.utf8).write(to: dir.appendingPathComponent("manifest.json")) }
        if let labels { try Data(labels.utf8).write(to: dir.appendingPathComponent("dict.txt")) }
        return dir.appendingPathComponent("manifest.json").path
    }

    @Test func trailingCommaManifestLoads() throws {
        // The corpus manifest carries Google's trailing comma.
        let text = try String(contentsOfFile: TaskFixtures.corpusPath("bundles/automl_labeler/manifest.json"), encoding: .utf8)
        #expect(text.replacingOccurrences(of: " ", with: "").contains(",\n}"))
        let model = try LocalModel(manifestPath: TaskFixtures.corpusPath("bundles/automl_labeler/manifest.json"))
        #expect(model.labels.count == 1000)
    }

    @Test func missingModelFile() throws {
        let path = try Self.labelerBundle(dropModel: true)
        #expect { try LocalModel(manifestPath: path) } throws: { error in
            guard case TaskError.fileNotFound(let p) = error else { return false }
            return p.hasSuffix("model.tflite")
        }
    }

    @Test func missingManifest() {
        #expect(throws: TaskError.fileNotFound("/nonexistent/manifest.json")) {
            try LocalModel(manifestPath: "/nonexistent/manifest.json")
        }
    }

    @Test func wrongManifestKeys() throws {
        let path = try Self.labelerBundle(manifest: #"{"model": "model.tflite", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"}"#)
        #expect { try LocalModel(manifestPath: path) } throws: { error in
            guard case TaskError.invalidBundle(let m) = error else { return false }
            return m.contains("missing key 'modelFile'")
        }
    }

    @Test func wrongModelType() throws {
        let path = try Self.labelerBundle(manifest: #"{"modelFile": "model.tflite", "labelsFile": "dict.txt", "modelType": "OBJECT_DETECTION"}"#)
        #expect { try LocalModel(manifestPath: path) } throws: { error in
            guard case TaskError.invalidBundle(let m) = error else { return false }
            return m.contains("OBJECT_DETECTION")
        }
    }

    /// A manifest is untrusted: the files it names must not lie outside its folder, whether it
    /// climbs out with `..` or names an absolute path; a subfolder is fine.
    @Test(arguments: [("../model.tflite", "dict.txt"), ("/etc/hostname", "dict.txt"),
                      ("model.tflite", "sub/../../dict.txt"), ("model.tflite", "/etc/passwd")])
    func manifestPathsStayInsideTheBundle(modelFile: String, labelsFile: String) throws {
        let path = try Self.labelerBundle(manifest: """
            {"modelFile": "\(modelFile)", "labelsFile": "\(labelsFile)", "modelType": "IMAGE_LABELING"}
            """)
        #expect { try LocalModel(manifestPath: path) } throws: { error in
            guard case TaskError.invalidBundle(let m) = error else { return false }
            return m.contains("must lie inside its folder")
        }
    }

    @Test func manifestMayNameASubfolder() throws {
        let path = try Self.labelerBundle(manifest: #"{"modelFile": "model.tflite", "labelsFile": "labels/dict.txt", "modelType": "IMAGE_LABELING"}"#)
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("labels"), withIntermediateDirectories: false)
        try FileManager.default.moveItem(at: dir.appendingPathComponent("dict.txt"), to: dir.appendingPathComponent("labels/dict.txt"))
        #expect(try LocalModel(manifestPath: path).labels.count == 1000)
    }

    @Test func labelCountMismatch() throws {
        let path = try Self.labelerBundle(labels: "cat\ndog\n")
        let model = try LocalModel(manifestPath: path)
        #expect(model.labels == ["cat", "dog"])
        #expect { try ImageLabeler(options: .init(localModel: model)) } throws: { error in
            guard case TaskError.labelMismatch(let m) = error else { return false }
            return m.contains("2 labels") && m.contains("1000 classes")
        }
    }

    @Test func detectorBundleMissingKeys() throws {
        let dir = try TaskFixtures.temporaryDirectory()
        let src = URL(fileURLWithPath: TaskFixtures.corpusPath("bundles/automl_detector"))
        for f in ["dict.txt", "model.tflite"] {
            try Data(contentsOf: src.appendingPathComponent(f).resolvingSymlinksInPath()).write(to: dir.appendingPathComponent(f))
        }
        try Data(#"{"inferenceType": "QUANTIZED_UINT8", "inputShape": [1, 320, 320, 3]}"#.utf8)
            .write(to: dir.appendingPathComponent("tflite_metadata.json"))
        #expect { try LocalModel(detectionBundle: dir.path) } throws: { error in
            guard case TaskError.invalidBundle(let m) = error else { return false }
            return m.contains("inputTensor") && m.contains("maxDetections")
        }
    }

    @Test func detectorLabelMismatch() throws {
        let model = try LocalModel(path: TaskFixtures.corpusPath("models/ssd_detector_int8.tflite"),
                                   labelsPath: TaskFixtures.corpusPath("bundles/automl_labeler/dict.txt"))
        #expect { try ObjectDetector(options: .init(localModel: model)) } throws: { error in
            guard case TaskError.labelMismatch(let m) = error else { return false }
            return m.contains("1000 labels") && m.contains("5 classes")
        }
    }

    @Test func undecodableImage() throws {
        #expect { try VisionImage(bytes: Array("not an image at all".utf8)) } throws: { error in
            guard case TaskError.invalidImage = error else { return false }
            return true
        }
        let truncated = try Data(contentsOf: URL(fileURLWithPath: TaskFixtures.modelsPath("images/chelsea.png"))).prefix(500)
        #expect { try VisionImage(bytes: [UInt8](truncated)) } throws: { error in
            guard case TaskError.invalidImage = error else { return false }
            return true
        }
    }

    @Test func labelFileLines() {
        #expect(LabelFile.parse(Array("a\r\nb\nc".utf8)) == ["a", "b", "c"])
        #expect(LabelFile.parse(Array("a\n\nc\n".utf8)) == ["a", "", "c"])
    }
}
