import Foundation
import Imaging
import Testing
import TestSupport
@testable import TFLiteTasks

/// `tflite detect-faces` and `tflite segment` as real processes, against the task API and
/// MediaPipe's goldens.
@Suite(.enabled(if: TFLiteExecutable.url != nil, "the tflite executable is built next to the tests"))
struct FaceAndSegmentCommandTests {
    static let astronaut = TaskFixtures.modelsPath("images/astronaut.png")

    static func faceGolden(_ name: String) throws -> MediaPipeGoldens.FaceImage {
        try #require(try MediaPipeGoldens.load(MediaPipeGoldens.Faces.self, "faces.json").images.first { $0.name == name })
    }

    @Test func detectFacesPrintsMediaPipesFace() async throws {
        let run = try await TFLiteExecutable.run(["detect-faces", Self.astronaut, "--json", "--threads", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        let faces = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let golden = try Self.faceGolden("astronaut")
        #expect(faces.count == golden.faces.count)
        let face = try #require(faces.first)
        #expect(abs((face["confidence"] as? Double ?? 0) - Double(golden.faces[0].score)) <= 4e-4)
        let box = try #require(face["box"] as? [String: Double])
        #expect(abs((box["left"] ?? 0) - Double(golden.faces[0].box[0]) * 512) <= 0.005)
        let keypoints = try #require(face["keypoints"] as? [[String: Any]])
        #expect(keypoints.compactMap { $0["name"] as? String } == FaceKeypoint.Kind.allCases.map(\.description))
        #expect(abs((keypoints[2]["x"] as? Double ?? 0) - Double(golden.faces[0].keypoints[2][0]) * 512) <= 0.005)
        #expect(run.stderr.isEmpty)
    }

    @Test func detectFacesAnnotatesThePhoto() async throws {
        let out = try TaskFixtures.temporaryDirectory().appendingPathComponent("faces.png")
        let run = try await TFLiteExecutable.run(["detect-faces", Self.astronaut, "--annotate", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("\(Self.astronaut): 1 face(s)\n"))
        let drawn = try VisionImage(path: out.path).image
        let photo = try VisionImage(path: Self.astronaut).image
        #expect(drawn.width == photo.width && drawn.height == photo.height)
        // The box's top-left corner is drawn in the box colour; the photo there is not green.
        let golden = try Self.faceGolden("astronaut").faces[0]
        let x = Int((golden.box[0] * 512).rounded()) + 1, y = Int((golden.box[1] * 512 + golden.box[3] * 512 / 2).rounded())
        #expect([0, 1, 2].map { drawn.sample(x: x, y: y, channel: $0) } == [0, 255, 0])
        #expect(drawn != photo)
    }

    @Test func detectFacesBatchesAFolder() async throws {
        let dir = try TaskFixtures.temporaryDirectory()
        for name in ["astronaut_pair", "coffee"] {
            try Data(PNGEncoder.encode(MediaPipeGoldens.image(try Self.faceGolden(name).tiles))).write(to: dir.appendingPathComponent(name + ".png"))
        }
        try Data("broken".utf8).write(to: dir.appendingPathComponent("b_broken.jpg"))
        let run = try await TFLiteExecutable.run(["detect-faces", dir.path, "--json", "--workers", "2"])
        #expect(run.status == 1, "\(run.stderr)")
        let lines = try run.stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(lines.compactMap { ($0["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } } == ["astronaut_pair.png", "b_broken.jpg", "coffee.png"])
        #expect((lines[0]["faces"] as? [Any])?.count == 2)
        #expect(lines[0]["width"] as? Int == 512 && lines[0]["height"] as? Int == 256)
        #expect(lines[1]["error"] is String)
        #expect((lines[2]["faces"] as? [Any])?.isEmpty == true)
        #expect(run.stderr.contains("searched 2 of 3 images (1 failed)"))
    }

    @Test(arguments: [["detect-faces"], ["segment"]])
    func outputsAreCheckedBeforeTheModelRuns(_ command: [String]) async throws {
        let jpeg = try await TFLiteExecutable.run(command + [Self.astronaut, "--annotate", "/tmp/out.jpg"])
        #expect(jpeg.status == 2)
        #expect(jpeg.stderr.hasPrefix("error: --annotate writes PNG"))
        let missing = try await TFLiteExecutable.run(command + [Self.astronaut, "--annotate", "/no/such/folder/out.png"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("error: cannot write --annotate /no/such/folder/out.png: folder '/no/such/folder' does not exist"))
        let batch = try await TFLiteExecutable.run(command + [Self.astronaut, Self.astronaut, "--annotate", "/tmp/out.png"])
        #expect(batch.status == 2)
        let threshold = try await TFLiteExecutable.run(command + [Self.astronaut, "--threshold", "2"])
        #expect(threshold.status == 2)
        #expect(threshold.stderr.contains("--threshold needs a number in 0...1"))
    }

    @Test(arguments: ["detect-faces", "segment"])
    func aModelOfTheWrongKindIsAClearError(_ command: String) async throws {
        let run = try await TFLiteExecutable.run([command, Self.astronaut, "--model", TaskFixtures.modelsPath("efficientnet_lite0.tflite")])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("error: unsupported model: "))
        #expect(run.stderr.contains(command == "segment" ? "is not a selfie segmenter" : "is not a BlazeFace face detector"))
    }

    @Test func segmentWritesTheMaskAndTheOverlay() async throws {
        let dir = try TaskFixtures.temporaryDirectory()
        let mask = dir.appendingPathComponent("mask.png"), overlay = dir.appendingPathComponent("overlay.png")
        let run = try await TFLiteExecutable.run(["segment", Self.astronaut, "--json", "--mask", mask.path, "--annotate", overlay.path])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        // The mask file is the API's mask; its person share is the one printed.
        let api = try SelfieSegmenter(options: SelfieSegmenterOptions(localModel: LocalModel(path: TaskFixtures.modelsPath("selfie_segmentation.tflite"))))
            .results(in: VisionImage(path: Self.astronaut))
        // The tool picks the widest kernels the CPU has; this process may run others (the CI
        // runs the tests on emulated CPUs while the tool runs natively), whose float rounding
        // can move a mask value across a level: at most one level, on few pixels.
        let written = try #require(try VisionImage(path: mask.path).image.pixels8)
        let expected = try #require(api.grayImage().pixels8)
        try #require(written.count == expected.count)
        let differing = zip(written, expected).filter { $0 != $1 }
        #expect(differing.allSatisfy { abs(Int($0) - Int($1)) <= 1 })
        #expect(differing.count <= written.count / 1000)
        #expect(object["width"] as? Int == 512 && object["height"] as? Int == 512)
        #expect(abs((object["foreground_fraction"] as? Double ?? -1) - Double(api.binaryMask().fraction)) < 1e-6)
        // MediaPipe's category mask gives the same share within the IoU the API tests allow.
        let golden = try #require(try MediaPipeGoldens.load(MediaPipeGoldens.Segmentation.self, "segmentation.json").images.first { $0.name == "astronaut" })
        let category = try #require(try MediaPipeGoldens.png(golden.category_mask).pixels8)
        let share = Double(category.filter { $0 == 0 }.count) / Double(category.count)
        #expect(abs((object["foreground_fraction"] as? Double ?? -1) - share) < 0.005)
        let drawn = try VisionImage(path: overlay.path).image
        #expect(drawn.width == 512 && drawn.height == 512)
        #expect(drawn != (try VisionImage(path: Self.astronaut).image))
    }

    @Test func segmentBatchesFiles() async throws {
        let chelsea = TaskFixtures.modelsPath("images/chelsea.png")
        let run = try await TFLiteExecutable.run(["segment", Self.astronaut, chelsea, "/no/such/image.png"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("\(Self.astronaut): 512x512, person "))
        #expect(run.stdout.contains("\(chelsea): 451x300, person "))
        #expect(run.stderr.contains("segmented 2 of 3 images (1 failed)"))
    }

    @Test(arguments: ["detect-faces", "segment"])
    func helpNamesTheOptions(_ command: String) async throws {
        let run = try await TFLiteExecutable.run([command, "--help"])
        #expect(run.status == 0)
        for option in ["--model", "--threshold", "--annotate", "--json", "--workers", "--threads"] {
            #expect(run.stdout.contains(option), "\(command) --help lacks \(option)")
        }
    }
}
