import Foundation
import Testing
import TestSupport

/// `tflite label` and `tflite detect` over several images and folders, run as real processes.
@Suite(.enabled(if: TFLiteExecutable.url != nil, "the tflite executable is built next to the tests"))
struct BatchCommandTests {
    static let chelsea = TaskFixtures.modelsPath("images/chelsea.png")
    static let coffee = TaskFixtures.modelsPath("images/coffee.png")
    static let detector = TaskFixtures.corpusPath("bundles/automl_detector")

    /// A folder with two photos and a broken file, sorted as b_broken.png between them.
    static func folder() throws -> URL {
        let dir = try TaskFixtures.temporaryDirectory()
        try FileManager.default.copyItem(atPath: chelsea, toPath: dir.appendingPathComponent("a_chelsea.png").path)
        try Data("not an image".utf8).write(to: dir.appendingPathComponent("b_broken.png"))
        try FileManager.default.copyItem(atPath: coffee, toPath: dir.appendingPathComponent("c_coffee.PNG").path)
        try Data("ignored".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        return dir
    }

    static func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func aFolderGivesOneJSONLinePerImageAndReportsTheBrokenOne() async throws {
        let dir = try Self.folder()
        let run = try await TFLiteExecutable.run(["label", dir.path, "--json", "--workers", "2"])
        #expect(run.status == 1, "\(run.stderr)")
        let lines = try Self.jsonLines(run.stdout)
        #expect(lines.map { ($0["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } } == ["a_chelsea.png", "b_broken.png", "c_coffee.PNG"])
        #expect(lines[0]["width"] as? Int == 451 && lines[0]["height"] as? Int == 300)
        let labels = try #require(lines[0]["labels"] as? [[String: Any]])
        #expect(labels.first?["text"] as? String == "Egyptian cat")
        #expect((lines[1]["error"] as? String)?.hasPrefix("invalid image: ") == true)
        #expect(lines[1]["labels"] == nil)
        #expect(run.stderr.contains("error: invalid image: \(dir.path)/b_broken.png"))
        #expect(run.stderr.contains("labelled 2 of 3 images (1 failed)"))
        #expect(run.stderr.contains("images/s, 2 worker(s)"))
    }

    @Test func allGoodIsExitStatus0() async throws {
        let run = try await TFLiteExecutable.run(["label", Self.chelsea, Self.coffee, "--max-results", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\(Self.chelsea): 1 label(s)"))
        #expect(run.stdout.contains("\(Self.coffee): 1 label(s)"))
        #expect(run.stderr.contains("labelled 2 of 2 images (0 failed)"))
    }

    @Test func oneImageKeepsItsOutput() async throws {
        let run = try await TFLiteExecutable.run(["label", Self.chelsea, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let labels = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(!labels.isEmpty && labels.count <= 10)
        #expect(labels.allSatisfy { ($0["confidence"] as? Double ?? 0) > 0 })
        #expect(run.stderr.isEmpty)
    }

    @Test(arguments: ["", "/manifest.json"])
    func labelTakesABundleFolderOrItsManifest(_ suffix: String) async throws {
        let run = try await TFLiteExecutable.run(["label", Self.chelsea, "--bundle", TaskFixtures.corpusPath("bundles/automl_labeler") + suffix, "--threads", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Egyptian cat"))
    }

    @Test(arguments: ["", "/tflite_metadata.json"])
    func detectTakesABundleFolderOrItsMetadata(_ suffix: String) async throws {
        let dir = try Self.folder()
        let run = try await TFLiteExecutable.run(["detect", dir.path, "--bundle", Self.detector + suffix, "--json", "--max-results", "2"])
        #expect(run.status == 1, "\(run.stderr)")
        let lines = try Self.jsonLines(run.stdout)
        #expect(lines.count == 3)
        #expect((lines[2]["objects"] as? [[String: Any]])?.count == 2)
        #expect(run.stderr.contains("detected in 2 of 3 images (1 failed)"))
    }

    @Test func annotateRefusesWhatItCannotWrite() async throws {
        let jpeg = try await TFLiteExecutable.run(["detect", Self.coffee, "--bundle", Self.detector, "--annotate", "/tmp/out.jpg"])
        #expect(jpeg.status == 2)
        #expect(jpeg.stderr.hasPrefix("error: --annotate writes PNG"))
        let missing = "/tmp/no-such-folder-\(UUID())/out.png"
        let folder = try await TFLiteExecutable.run(["detect", Self.coffee, "--bundle", Self.detector, "--annotate", missing])
        #expect(folder.status == 1)
        #expect(folder.stderr.hasPrefix("error: cannot write --annotate \(missing): folder"))
        let batch = try await TFLiteExecutable.run(["detect", Self.coffee, Self.chelsea, "--bundle", Self.detector, "--annotate", "/tmp/out.png"])
        #expect(batch.status == 2)
    }
}
